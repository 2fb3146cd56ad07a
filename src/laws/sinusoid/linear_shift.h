// sinusoid.linear_shift (CLAIMS.md "sinusoid.linear-shift"), written once: for
// a fixed distance k, p(m + k) = M_k p(m) with M_k block-diagonal rotations
// that do not depend on m (Vaswani et al. 2017, section 3.5).
//
// Two tolerance rules:
//   - white box (pv::sinusoid in T, whose speeds, angles and sums we know):
//     sinusoid_shift_bound (error_bounds.h), the error of p~(m + k) plus the
//     dot-product bound of M~_k p~(m) with their input errors (evaluate());
//   - black box (a kernel's rows p(m), p(m + k), M_k exact in MPFR):
//     t(m + k) + (|cos k w| + |sin k w|) t(m) per entry, t the per-entry
//     tolerance of sinusoid.reference (reference.h) (compare_on_kernel()).
// Judges: the property (src/properties/sinusoid/linear_shift.cpp), the
// error-budget row (budgets/budgets.cpp), the claim sinusoid.linear-shift
// (claims/history.cpp, in hp on the chapter's positions) and the black-box check
// (blackbox/sinusoid_laws.cpp; before, the check called it
// "sinusoid.shift_map": laws/aliases.h).
#pragma once

#include "laws/tally.h"
#include "laws/sinusoid/reference.h"
#include "numerics/error_bounds.h"
#include "numerics/sinusoid.h"

#include <string>
#include <vector>

namespace pv::laws::linear_shift {

inline constexpr const char* id = "sinusoid.linear_shift";

inline std::string statement() {
  return "for every distance k there is one fixed matrix M_k (2x2 blocks [[cos kw, sin kw], "
         "[-sin kw, cos kw]] on each (sin, cos) pair) with p(m + k) = M_k p(m) for every "
         "position m";
}

/// The generator stream of the black-box check's cases: the one they had
/// when the check called this law "sinusoid.shift_map" (law_run seeds a
/// law's cases from its id), so that a saved report, its baseline figures
/// and its replay commands still meet the same cases.
inline constexpr const char* check_case_stream = "sinusoid.shift_map";

/// The white-box tolerance rule in words.
inline std::string tolerance_rule() {
  return "p~(m+k) within eta(m+k, w) = u |(m+k) w| + 2 ulps of its exact value; M_k p~(m) "
         "within the dot-product bound gamma_d sum |M~ p~| + sum (eM |p~| + (|M~| + eM) ep) "
         "with eM = eta(k, w), ep = eta(m, w) (angle rounding of one product, error_bounds.h); "
         "the two bounds added";
}

/// The black-box tolerance rule in words.
inline std::string any_speed_tolerance_rule() {
  return "|p(m+k) - M_k p(m)| <= t(m+k) + (|cos k w| + |sin k w|) t(m) per entry, M_k exact (MPFR); " +
         sinusoid_reference::entry_tolerance_rule();
}

/// One compared entry r: p(m + k)_r (`shifted`) against (M_k p(m))_r
/// (`mapped`: computed in T by the white-box judge, in hp from the kernel's
/// p(m) by the black-box one).
template <class T, class Mapped = T>
struct entry {
  std::size_t index;
  const T& shifted;
  const Mapped& mapped;
  const hp& diff;
  const hp& bound;
};

using outcome = tally;

/// evaluate(case, T): pv::sinusoid in T with speeds w at positions m and
/// m + k, M_k computed in T (sinusoid_shift_map) and applied by a
/// left-to-right product, within sinusoid_shift_bound. Positions m, k, m + k
/// must be exact in T. `visit(entry)` returns false to stop.
template <class T, class Visit>
outcome evaluate(const std::vector<T>& w, double m, double k, Visit&& visit) {
  const auto P = sinusoid_with_speeds<T>({m, m + k}, w);  // rows p(m), p(m + k)
  const auto M = sinusoid_shift_map<T>(w, k);
  matrix<T> pm(w.size() * 2, 1);
  for (std::size_t j = 0; j < pm.rows; ++j) pm(j, 0) = P(0, j);
  const auto Mp = matmul(M, pm);
  const auto B = sinusoid_shift_bound<T>(w, m, k);
  outcome o;
  for (std::size_t r = 0; r < pm.rows; ++r) {
    const hp diff = abs(convert<hp>(P(1, r)) - convert<hp>(Mp(r, 0)));
    o.count(diff, B[r]);
    if (!visit(entry<T>{r, P(1, r), Mp(r, 0), diff, B[r]})) return o;
  }
  return o;
}

/// The black-box law body: `out` the kernel's rows p(m) and p(m + k), M the
/// exact M_k (sinusoid_shift_map in hp), `tol(r, i)` the per-entry t of pair
/// i in row r (sinusoid_reference::entry_tolerance). `visit(entry<T, hp>)`
/// sees the entries pair by pair (mapped: the prediction from the kernel's
/// p(m) and the exact M_k) and returns false to stop.
template <class T, class Tol, class Visit>
outcome compare_on_kernel(const matrix<T>& out, const matrix<hp>& M, std::size_t pairs, Tol&& tol,
                          Visit&& visit) {
  outcome o;
  for (std::size_t q = 0; q < pairs; ++q) {
    const hp t0 = tol(0, q), t1 = tol(1, q);
    for (std::size_t e : {2 * q, 2 * q + 1}) {
      const hp pred = M(e, 2 * q) * convert<hp>(out(0, 2 * q)) + M(e, 2 * q + 1) * convert<hp>(out(0, 2 * q + 1));
      const hp bound = t1 + (abs(M(e, 2 * q)) + abs(M(e, 2 * q + 1))) * t0;
      const hp diff = abs(convert<hp>(out(1, e)) - pred);
      o.count(diff, bound);
      if (!visit(entry<T, hp>{e, out(1, e), pred, diff, bound})) return o;
    }
  }
  return o;
}

}  // namespace pv::laws::linear_shift
