// rope.identity_at_zero: R(0) is the identity (every angle 0 * w_k is 0,
// cos 0 = 1, sin 0 = 0). FLUX.1's text tokens sit at (0, 0, 0), where the same
// fact is the law flux.text_identity (laws/flux/text_identity.h).
// Judge: the black-box check (blackbox/rope_laws.cpp, 1-D configurations).
#pragma once

#include <string>

namespace pv::laws::identity_at_zero {

inline constexpr const char* id = "rope.identity_at_zero";

inline std::string statement() { return "the rotation at position 0 is the identity"; }

}  // namespace pv::laws::identity_at_zero
