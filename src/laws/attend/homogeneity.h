// attend.homogeneity, written once: powers of two pass through attention
// exactly (survey law 10; the scale's homogeneity). Two laws on one problem,
// each a call beside the problem's own:
//   - the queries scaled by 2^f and the scale by 2^-f: every logit
//     scale (q . k_j) is the same real number, so the output and the
//     log-sum-exp are the same;
//   - the values scaled by 2^e: the output is 2^e times the problem's, the
//     log-sum-exp the same (Z does not read V).
// f is even (2 or 4), so that a kernel scaling q and k by sqrt(scale) each
// (PyTorch's math attention) scales them by 2^{-f/2} exactly; e is 1 to 3.
// The scale is given explicitly in every call (a kernel's own 1/sqrt(d) may
// round otherwise than the problem's). All three calls share one layout.
//
// Why exact: multiplying a binary floating-point number by a power of two is
// exact unless the result overflows or falls below the smallest normal, and
// then every rounding of the scaled computation is the scaled rounding of
// the problem's (each operation rounds 2^t x to 2^t fl(x)); an addition is
// exact even among the subnormals (gradual underflow), so only products,
// quotients, exponentials and stores that land below the smallest normal
// round otherwise. Whatever the order, blocking or fusion, a kernel that
// computes the same operations on both calls (a fixed schedule: the shapes
// are the same) gives the same bits up to those roundings. What breaks it:
// a scale ignored or applied twice, a score clamped or a mask constant added
// at a magnitude that does not scale, an accumulator that overflows or
// saturates when V grows.
//
// Exactness class:
//   - queries: bitwise when the kernel computes and stores in float32 or
//     float64 (and bfloat16 storage, whose smallest normal is float32's): a
//     product of two inputs drawn in the format is far above the smallest
//     normal there, a sum is exact, and the logit itself is the same real
//     number in both calls. Under float16 storage or arithmetic a score
//     stored or a product formed among float16's subnormals (below 2^-14)
//     rounds otherwise when scaled by 2^f, so the law holds there within the
//     reassociation bound B_A + B_Q of the two calls (problem.h);
//   - values: the output within 2^e U_A + U_V per entry, U the roundings
//     below the smallest normal that B counts (problem.h, underflow_term:
//     n mu max_j |v_jc|, a 16-bit p v accumulator's (2n + 2) eta_pv, an
//     output stored among the subnormals eta_s / 2), and the log-sum-exp
//     bitwise. With float32 or float64 arithmetic and no 16-bit format, U is
//     below 10^-30 of the values: bitwise in all but name.
// Judge: the black-box check (blackbox/attend_laws.cpp).
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/problem.h"

#include <cmath>
#include <string>
#include <vector>

namespace pv::laws::attend_homogeneity {

inline constexpr const char* id = "attend.homogeneity";

inline std::string statement() {
  return "powers of two pass through exactly: the queries scaled by 2^f and the scale by 2^-f give the same output "
         "and log-sum-exp; the values scaled by 2^e give 2^e times the output and the same log-sum-exp";
}

inline std::string tolerance_rule() {
  return "queries: bitwise in float32 and float64 arithmetic and storage (bfloat16 storage too), within B_A + B_Q "
         "under float16 storage or arithmetic (a score among float16's subnormals rounds otherwise when scaled); "
         "values: |out_V - 2^e out_A| <= 2^e U_A + U_V per entry, U = n mu max_j |v_jc| + (2n + 2) eta_pv + eta_s / 2 "
         "(the roundings below the smallest normal, which alone do not scale), and the log-sum-exp bitwise; " +
         attend::any_order_rule();
}

/// The problem with its scale explicit (1/sqrt(d) when 0): what all three
/// calls are given.
inline attend::problem explicit_scale(attend::problem P) {
  if (P.scale == 0) P.scale = 1 / std::sqrt(double(P.d));
  return P;
}

/// P with its queries scaled by 2^f and its scale by 2^-f.
inline attend::problem queries_scaled(const attend::problem& P, int f) {
  attend::problem R = P;
  for (auto& x : R.q) x = std::ldexp(x, f);
  R.scale = std::ldexp(P.scale, -f);
  return R;
}

/// P with its values scaled by 2^e.
inline attend::problem values_scaled(const attend::problem& P, int e) {
  attend::problem R = P;
  for (auto& x : R.v) x = std::ldexp(x, e);
  return R;
}

/// Whether the queries' law holds bitwise at these units: no format the
/// logits are computed or stored in has its smallest normal above float32's
/// 2^-126 (float16's is 2^-14; its subnormal spacing 2^-24 marks it).
inline bool queries_bitwise(const attend::units& U) {
  return U.mu <= hp(0x1p-126) && U.eta_s < hp(0x1p-100);
}

/// The queries' law: the call with queries and scale scaled (out_q, lse_q)
/// against the problem's call, bitwise, or within B_A + B_Q (empty when
/// bitwise).
inline attend_compare::worst compare_queries(const std::vector<double>& out, const std::vector<double>& lse,
                                             const std::vector<double>& out_q, const std::vector<double>& lse_q,
                                             const attend::bounds* BA, const attend::bounds* BQ) {
  attend_compare::worst w;
  for (std::size_t e = 0; e < out_q.size(); ++e)
    attend_compare::raise(w, e, false, out_q[e], hp(out[e]), BA ? hp(BA->out[e] + BQ->out[e]) : hp(0));
  for (std::size_t e = 0; e < lse_q.size() && e < lse.size(); ++e)
    attend_compare::raise(w, e, true, lse_q[e], hp(lse[e]), BA ? hp(BA->lse[e] + BQ->lse[e]) : hp(0));
  return w;
}

/// The values' law: the call with V scaled by 2^e (out_v, lse_v) against 2^e
/// times the problem's output within 2^e U_A + U_V (attend::underflow), its
/// log-sum-exp bitwise.
inline attend_compare::worst compare_values(int e, const std::vector<double>& out, const std::vector<double>& lse,
                                            const std::vector<double>& out_v, const std::vector<double>& lse_v,
                                            const std::vector<hp>& UA, const std::vector<hp>& UV) {
  attend_compare::worst w;
  for (std::size_t x = 0; x < out_v.size(); ++x)
    attend_compare::raise(w, x, false, out_v[x], hp(std::ldexp(out[x], e)), std::ldexp(1.0, e) * UA[x] + UV[x]);
  for (std::size_t x = 0; x < lse_v.size() && x < lse.size(); ++x)
    attend_compare::raise(w, x, true, lse_v[x], hp(lse[x]), hp(0));
  return w;
}

}  // namespace pv::laws::attend_homogeneity
