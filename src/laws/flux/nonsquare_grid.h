// flux.nonsquare_grid: on an H x W grid with H != W the rows drive the row
// axis and the columns the column axis (a kernel that swaps them agrees on
// square grids only): every rotated row agrees with the reference.
// Tolerance: the kernel model of blackbox/rope_model.h (model_rule).
// Judge: the black-box check (src/blackbox/rope_laws.cpp).
// Before, it was "rope.flux.nonsquare_grid" (laws/aliases.h); check_case_stream
// keeps its cases.
#pragma once

#include <string>

namespace pv::laws::nonsquare_grid {

inline constexpr const char* id = "flux.nonsquare_grid";

inline constexpr const char* check_case_stream = "rope.flux.nonsquare_grid";

inline std::string statement() {
  return "on an H x W grid with H != W (ids (0, row, col), row-major, 0 to 3 text tokens at "
         "(0, 0, 0) ahead of it) every row agrees with the reference: rows drive the row axis, "
         "columns the column axis";
}

}  // namespace pv::laws::nonsquare_grid
