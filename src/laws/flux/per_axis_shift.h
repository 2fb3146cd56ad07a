// flux.per_axis_shift (CLAIMS.md "flux.separate-offsets"): shifting the two
// positions by the same amount along any axis, each axis by its own amount,
// leaves the multi-axis RoPE dot product unchanged:
// <R(p + s) q, R(p' + s) k> = <R(p) q, R(p') k>, s = (s_image, s_row, s_col).
//
// The law body is rope.shift_invariance's on a layout of three axes
// (laws/rope/shift_invariance.h): the difference of the two dot products
// against the sum of their bounds, compare() and evaluate_rope() below.
// Two tolerance rules for the bounds, because the judges know different things:
//   - the property (src/properties/flux/per_axis_shift.cpp) and the
//     error-budget row (src/budgets/budgets.cpp) compute the dots with
//     pv::rope_dot in T, each within rope_dot_error_bound (tolerance_rule());
//   - the black-box check (src/blackbox/rope_laws.cpp) takes the dots exactly
//     in MPFR from a kernel's rotated rows, each within the dot-product rule of
//     its rows' rotation tolerance (its relative-law rule, blackbox/rope_model.h).
// Before, the check called this law "rope.flux.per_axis_shift" (laws/aliases.h);
// check_case_stream keeps its cases.
#pragma once

#include "laws/rope/shift_invariance.h"

#include <array>
#include <string>

namespace pv::laws::per_axis_shift {

inline constexpr const char* id = "flux.per_axis_shift";

/// The black-box check's case stream: the one it had under its old id
/// (law_run seeds a law's cases from it).
inline constexpr const char* check_case_stream = "rope.flux.per_axis_shift";

/// The property's statement.
inline std::string statement() {
  return "multi-axis RoPE: <R(p + s) q, R(p' + s) k> = <R(p) q, R(p') k> for every per-axis "
         "shift s = (s_image, s_row, s_col), each axis shifted alone or all together (cells of "
         "H x W grids of any shape, shifts up to 2^20; FLUX.1's [16, 56, 56] or reduced "
         "layouts)";
}

/// The black-box check's statement: its cases shift one axis at a time.
inline std::string check_statement() {
  return "shifting one axis only (image, row or column, in turn) of both positions leaves q.k unchanged";
}

/// The white-box rule (property and budget row).
inline std::string tolerance_rule() {
  return "each side within rope_dot_error_bound (angle rounding u|p w| + 2 ulps of sin/cos, "
         "gamma_2 per rotation, gamma_d dot product), bounds added; in hp the reference "
         "precision";
}

template <class T>
using outcome = shift_invariance::outcome<T>;

/// The law body: `base` = <R(p)q, R(p')k>, `shifted` = <R(p+s)q, R(p'+s)k>.
template <class T>
outcome<T> compare(const T& base, const T& shifted, const hp& bound_base, const hp& bound_shifted) {
  return shift_invariance::compare(base, shifted, bound_base, bound_shifted);
}

/// evaluate(case, implementation) for pv::rope_dot in T on a 3-axis layout,
/// cells p, p2 and the per-axis shift s, rope_dot_error_bound each side.
template <class T>
outcome<T> evaluate_rope(const rope_layout<T>& L, const T* q, const T* k, const std::array<double, 3>& p,
                         const std::array<double, 3>& p2, const std::array<double, 3>& s) {
  return shift_invariance::evaluate_rope<T, 3>(L, q, k, p, p2, s);
}

}  // namespace pv::laws::per_axis_shift
