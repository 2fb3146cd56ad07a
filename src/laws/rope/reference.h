// rope.reference: a kernel's rotation agrees with the high-precision (MPFR)
// RoPE of the configuration it was asked for (CLAIMS.md, core laws; the
// chapter's R(m) of 2x2 rotations by m w_k, w_k = theta^(-2k/d)).
// Tolerance: the kernel model of blackbox/rope_model.h (model_rule, or
// scaled_model_rule for the scaled configurations of version 3), which needs
// the kernel's speeds and so stays with its judge.
// Judge: the black-box check (blackbox/rope_laws.cpp).
#pragma once

#include <string>

namespace pv::laws::rope_reference {

inline constexpr const char* id = "rope.reference";

inline std::string statement() {
  return "the rotation agrees with the high-precision (MPFR) RoPE of the requested configuration "
         "(pairs, ladder theta^(-2k/axes_dim[a]) per axis, positions up to --max-position)";
}

}  // namespace pv::laws::rope_reference
