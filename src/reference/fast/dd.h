// Double-word ("double-double") building blocks of the fast reference tier.
//
// A value is hi + lo with |lo| <= ulp(hi)/2. Every operation below carries
// the relative error bound proved by Joldes, Muller and Popescu, "Tight and
// rigorous error bounds for basic building blocks of double-word arithmetic"
// (ACM TOMS 44(2), 2017; JMP below), in units of u^2, u = 2^-53, valid when
// no underflow or overflow occurs (the callers keep their values inside
// [2^-900, 2^900] or add an absolute underflow term). The error-free
// transformations are Knuth's TwoSum, Dekker's Fast2Sum and TwoProd by FMA.
//
// This file must be compiled without value-changing optimisations:
// cmake/stages.cmake sets -ffp-contract=off (no silent FMA) and no
// -ffast-math.
#pragma once

#include <cmath>  // std::fma

namespace pv::fast {

inline constexpr double u = 0x1p-53;        ///< unit roundoff of binary64
inline constexpr double u2 = 0x1p-106;      ///< u^2

struct dd {
  double hi = 0, lo = 0;
};

/// s + t = a + b exactly (Knuth's TwoSum, 6 flops, any a, b).
inline void two_sum(double a, double b, double& s, double& t) {
  s = a + b;
  double bb = s - a;
  t = (a - (s - bb)) + (b - bb);
}

/// s + t = a + b exactly when |a| >= |b| or a = 0 (Dekker's Fast2Sum).
inline void fast_two_sum(double a, double b, double& s, double& t) {
  s = a + b;
  t = b - (s - a);
}

/// p + e = a b exactly (no underflow): TwoProd with one FMA.
inline void two_prod(double a, double b, double& p, double& e) {
  p = a * b;
  e = std::fma(a, b, -p);
}

/// x + y, x double-word, y double: JMP Algorithm 4 (DWPlusFP), error <= 2 u^2.
inline dd add(dd x, double y) {
  double sh, sl;
  two_sum(x.hi, y, sh, sl);
  double v = x.lo + sl;
  dd z;
  fast_two_sum(sh, v, z.hi, z.lo);
  return z;
}
inline constexpr double add_dw_fp_err = 2.0;  ///< in u^2 (JMP Thm 3.1: 2u^2 / (1 - 2u))

/// x + y: JMP Algorithm 6 (AccurateDWPlusDW), error <= 3 u^2 + 13 u^3.
inline dd add(dd x, dd y) {
  double sh, sl, th, tl;
  two_sum(x.hi, y.hi, sh, sl);
  two_sum(x.lo, y.lo, th, tl);
  double c = sl + th;
  double vh, vl;
  fast_two_sum(sh, c, vh, vl);
  double w = tl + vl;
  dd z;
  fast_two_sum(vh, w, z.hi, z.lo);
  return z;
}
inline constexpr double add_dw_dw_err = 3.01;  ///< in u^2 (JMP Thm 3.3: 3u^2 / (1 - 4u))

inline dd neg(dd x) { return {-x.hi, -x.lo}; }

/// x y, y double: JMP Algorithm 9 (DWTimesFP3), error <= 2 u^2.
inline dd mul(dd x, double y) {
  double ch, cl1;
  two_prod(x.hi, y, ch, cl1);
  double cl3 = std::fma(x.lo, y, cl1);
  dd z;
  fast_two_sum(ch, cl3, z.hi, z.lo);
  return z;
}
inline constexpr double mul_dw_fp_err = 2.0;  ///< in u^2 (JMP Thm 4.3)

/// x y: JMP Algorithm 12 (DWTimesDW3), error <= 5 u^2 (JMP Thm 5.3; later
/// sharpened to 4 u^2 by Muller and Rideau, 2022).
inline dd mul(dd x, dd y) {
  double ch, cl0;
  two_prod(x.hi, y.hi, ch, cl0);
  double tl0 = x.lo * y.lo;
  double tl1 = std::fma(x.hi, y.lo, tl0);
  double cl2 = std::fma(x.lo, y.hi, tl1);
  double cl3 = cl0 + cl2;
  dd z;
  fast_two_sum(ch, cl3, z.hi, z.lo);
  return z;
}
inline constexpr double mul_dw_dw_err = 5.0;  ///< in u^2

/// x / y: JMP Algorithm 17 (DWDivDW2), error <= 15 u^2 + 56 u^3.
inline dd div(dd x, dd y) {
  double th = x.hi / y.hi;
  dd r = mul(y, th);
  double pih = x.hi - r.hi;
  double dl = x.lo - r.lo;
  double d = pih + dl;
  double tl = d / y.hi;
  dd z;
  fast_two_sum(th, tl, z.hi, z.lo);
  return z;
}
inline constexpr double div_dw_dw_err = 15.01;  ///< in u^2 (JMP Thm 7.2)

/// Higham's gamma_n = n u / (1 - n u) for binary64.
inline double gamma_n(double n) { return n * u / (1 - n * u); }

}  // namespace pv::fast
