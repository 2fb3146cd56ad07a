// sinusoid.reference, written once: a kernel's additive sinusoid (Vaswani et
// al. 2017, section 3.5) has the formula and the layout
//   p(m)_{2i} = sin(m w_i),  p(m)_{2i+1} = cos(m w_i),  w_i = base^(-2i/d),
// against the high-precision (MPFR) reference.
//
// Tolerance (black box, the kernel's own speeds and angles): entry_tolerance
// t = |m| w (eps_w(i) + u_angle) + e_sc: the speed w_i within eps_w(i)
// relative (a user's kernel may compute it directly or by a ladder of
// products: the judge's speed model, blackbox/rope_model.h speed_error), the
// angle m w one more rounding, sin and cos e_sc = 4u each (error_bounds.h,
// trig_abs_error_at), plus u (1 + e_sc) when a coarser declared format stores
// the result. sinusoid.linear_shift (linear_shift.h) builds its black-box
// tolerance from the same t.
// Judge: the black-box check (blackbox/sinusoid_laws.cpp).
#pragma once

#include "laws/tally.h"
#include "numerics/error_bounds.h"
#include "numerics/matrix.h"

#include <string>
#include <vector>

namespace pv::laws::sinusoid_reference {

inline constexpr const char* id = "sinusoid.reference";

inline std::string statement() {
  return "p(m)_{2i} = sin(m w_i), p(m)_{2i+1} = cos(m w_i), w_i = base^(-2i/d): formula and "
         "layout agree with the high-precision (MPFR) reference";
}

/// t in words (the tolerance of this law, and the per-entry term of
/// sinusoid.linear_shift's black-box tolerance).
inline std::string entry_tolerance_rule() {
  return "t = |m| w (eps_w(i) + u_angle) + e_sc per entry; eps_w(i) = max(eps_direct, eps_ladder(i)) covers "
         "a speed base^(-2i/d) computed directly (pow, reciprocal, exp/log, a table in T or float64: "
         "eps_direct = (4 + ln base) u) or by a ladder of products in T (eps_ladder(i) = "
         "(1 + eps_r)^i (1 + u)^i - 1, eps_r = (4 + (2/d) ln base) u); the angle m w one more "
         "rounding in T (u_angle, T's u even under a declared 16-bit storage class), so the error "
         "grows with the position; sin and cos e_sc = 4u each (2 ulps of a value <= 1), plus u(1 + "
         "e_sc) when a declared storage format coarser than T holds the result";
}

/// t of the entries of pair i at position m (exact speed w): eps_w the
/// speed's relative error, u_angle the unit roundoff of the angle, u_op that
/// of sin, cos and storage; `stored`: a declared format coarser than T holds
/// the result.
inline hp entry_tolerance(const hp& m, const hp& w, const hp& eps_w, const hp& u_angle, const hp& u_op,
                          bool stored) {
  hp e = trig_abs_error_at(u_op);  // sin or cos of the rounded angle (2 ulps), then stored
  if (stored) e += u_op * (1 + e);
  return abs(m) * w * (eps_w + u_angle) + e;
}

/// One compared entry: row `row` (position m), entry `col` (2i: sin, 2i + 1:
/// cos) of the kernel's output against the reference value.
template <class T>
struct entry {
  std::size_t row, col;
  bool is_sin;
  const T& got;
  const hp& expected;
  const hp& diff;
  const hp& bound;
};

using outcome = tally;

/// The law body on the kernel's rows `out` (one per position of `pos`) with
/// the exact speeds w; `tol(r, i)` the tolerance of pair i in row r
/// (entry_tolerance). `visit(entry)` sees sin then cos of every pair, row by
/// row, and returns false to stop.
template <class T, class Tol, class Visit>
outcome compare_on_kernel(const matrix<T>& out, const std::vector<double>& pos, const std::vector<hp>& w,
                          Tol&& tol, Visit&& visit) {
  outcome o;
  for (std::size_t r = 0; r < pos.size(); ++r)
    for (std::size_t q = 0; q < w.size(); ++q) {
      const hp m = convert<hp>(pos[r]), a = m * w[q];
      const hp t = tol(r, q);
      const hp s = sin(a), co = cos(a);
      for (const bool is_sin : {true, false}) {
        const std::size_t col = is_sin ? 2 * q : 2 * q + 1;
        const hp& expected = is_sin ? s : co;
        const hp diff = abs(convert<hp>(out(r, col)) - expected);
        o.count(diff, t);
        if (!visit(entry<T>{r, col, is_sin, out(r, col), expected, diff, t})) return o;
      }
    }
  return o;
}

}  // namespace pv::laws::sinusoid_reference
