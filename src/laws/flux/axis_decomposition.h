// flux.axis_decomposition (CLAIMS.md "flux.separate-offsets"): with
// multi-axis RoPE the query-key dot product is the sum of three per-axis
// group dot products, and the group of axis a depends only on that axis's
// offset p_a - p'_a.
// Judge: the property (src/properties/flux/axis_decomposition.cpp).
#pragma once

#include <string>

namespace pv::laws::axis_decomposition {

inline constexpr const char* id = "flux.axis_decomposition";

inline std::string statement() {
  return "multi-axis RoPE: <R(p) q, R(p') k> = sum over the three axes a of the group dot "
         "products, and the group of axis a equals <R_a(p_a - p'_a) q_a, k_a>, a function of "
         "that axis's offset alone (cells of H x W grids of any shape, optional per-axis "
         "offsets up to 2^20; FLUX.1's [16, 56, 56] or reduced layouts)";
}

inline std::string tolerance_rule() {
  return "each group: both sides within dot_error_bound of the exact group dot (rotation "
         "errors from angle rounding u|p w| + 2 ulps of sin/cos and gamma_2, then gamma_{2k}), "
         "bounds added; full vs sum of groups: the same computed products summed in two "
         "orders, 2 gamma_{d+2} sum |q~_j k~_j|; in hp the reference precision";
}

}  // namespace pv::laws::axis_decomposition
