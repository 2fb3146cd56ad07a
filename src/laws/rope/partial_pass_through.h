// rope.partial.pass_through: with partial rotary (only R of the head's D
// components rotated: the first R, as in GPT-NeoX's rotary_pct, or another
// block, as MLA's rope part at the end of a head), the other D - R
// components come back bit for bit: as they were sent (a 16-bit wire rounds
// them before the kernel sees them), or held once in a declared storage format.
// Judge: the black-box check (blackbox/rope_scaled_laws.cpp).
#pragma once

#include <cstddef>
#include <string>

namespace pv::laws::partial_pass_through {

inline constexpr const char* id = "rope.partial.pass_through";

/// The rotated block is components offset .. offset + R - 1 (offset 0: the first R).
inline std::string statement(std::size_t R, std::size_t D, std::size_t offset = 0) {
  if (offset == 0)
    return "partial rotary: the components after the first R = " + std::to_string(R) + " of " +
           std::to_string(D) + " pass through unchanged";
  return "partial rotary: the components outside the rotated block " + std::to_string(offset) + " to " +
         std::to_string(offset + R - 1) + " (R = " + std::to_string(R) + " of " + std::to_string(D) +
         ") pass through unchanged";
}

inline std::string tolerance_rule() {
  return "exact: every pass-through component bit-identical to the input as sent (no arithmetic "
         "touches it; when the float32 law's buffers travel as float16 or bfloat16, the input "
         "rounded to that format), or to that input rounded once to the format of a declared "
         "storage class (a kernel that holds its input in that format)";
}

}  // namespace pv::laws::partial_pass_through
