// rope.partial.pass_through: with partial rotary (only the first R of the
// head's D components rotated, as in GPT-NeoX's rotary_pct), the other D - R
// components come back bit for bit.
// Judge: the black-box check (blackbox/rope_scaled_laws.cpp).
#pragma once

#include <cstddef>
#include <string>

namespace pv::laws::partial_pass_through {

inline constexpr const char* id = "rope.partial.pass_through";

inline std::string statement(std::size_t R, std::size_t D) {
  return "partial rotary: the components after the first R = " + std::to_string(R) + " of " +
         std::to_string(D) + " pass through unchanged";
}

inline std::string tolerance_rule() {
  return "exact: every pass-through component bit-identical to the input (no arithmetic touches it)";
}

}  // namespace pv::laws::partial_pass_through
