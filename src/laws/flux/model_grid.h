// flux.model_grid: the positions of one FLUX.1 image at 1024 x 1024 pixels
// (a 64 x 64 grid of patches, ids (0, row, col), row-major) with 8 text
// tokens at (0, 0, 0) ahead: every rotated row agrees with the reference.
// Tolerance: the kernel model of blackbox/rope_model.h (model_rule).
// Judge: the black-box check (src/blackbox/rope_laws.cpp, profile models).
// Before, it was "rope.flux.model_grid" (laws/aliases.h); check_case_stream
// keeps its cases.
#pragma once

#include <string>

namespace pv::laws::model_grid {

inline constexpr const char* id = "flux.model_grid";

inline constexpr const char* check_case_stream = "rope.flux.model_grid";

inline std::string statement() {
  return "the 64 x 64 grid of one FLUX.1 image at 1024 x 1024 pixels (ids (0, row, col), "
         "row-major) with 8 text tokens at (0, 0, 0) ahead of it: every row agrees with the "
         "reference";
}

}  // namespace pv::laws::model_grid
