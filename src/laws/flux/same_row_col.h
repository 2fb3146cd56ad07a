// flux.same_row_col (CLAIMS.md "flux.same-row-col"): in FLUX.1's multi-axis
// RoPE two cells in the same row turn their row group by the same angle, so
// that group's part of the query-key dot product is the unrotated one
// (likewise the column group of two cells in one column); for the whole dot,
// two patches in one row score as the same pair moved to row 0.
// Two judges, two forms of the law with their own tolerance rules:
//   - the property (src/properties/flux/same_row_col.cpp): per group, the
//     rotated group dot against the unrotated one, each within
//     dot_error_bound (tolerance_rule());
//   - the black-box check (src/blackbox/rope_laws.cpp): the whole dot of the
//     pair against the pair moved to row 0 / column 0 (its relative-law rule on
//     the kernel's rows, blackbox/rope_model.h; the law body
//     shift_invariance::compare). Before, the check called it
//     "rope.flux.same_row_col" (laws/aliases.h); check_case_stream keeps its cases.
#pragma once

#include <string>

namespace pv::laws::same_row_col {

inline constexpr const char* id = "flux.same_row_col";

inline constexpr const char* check_case_stream = "rope.flux.same_row_col";

/// The property's statement.
inline std::string statement() {
  return "multi-axis RoPE (FLUX.1's [16, 56, 56], theta 10000, or reduced 3-axis layouts): for "
         "two cells of an H x W grid (any shape, 1..16 per side) in the same row, the row "
         "group's part of <R(p) q, R(p') k> equals the unrotated <q, k> over that group (zero "
         "angle difference); likewise the column group for two cells in one column and the "
         "image group for two cells of one image";
}

/// The black-box check's statement.
inline std::string check_statement() {
  return "two patches in the same row score as the same pair moved to row 0 (columns shifted so "
         "the smaller is 0); likewise two patches in the same column (ids (0, row, col))";
}

/// The property's rule.
inline std::string tolerance_rule() {
  return "rotated group dot within dot_error_bound with the rotation errors (angle rounding "
         "u|p w| + 2 ulps of sin/cos, gamma_2 per rotation, gamma_{2k} sum), plus the "
         "unrotated group dot's gamma_{2k} sum |q_j k_j|; in hp the reference precision";
}

}  // namespace pv::laws::same_row_col
