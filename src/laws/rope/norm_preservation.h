// rope.norm_preservation: |R(m) x| = |x|, R(m) being a product of plane
// rotations (the chapter's 2x2 blocks [[cos, -sin], [sin, cos]]).
// Judge: the black-box check (blackbox/rope_laws.cpp).
#pragma once

#include <string>

namespace pv::laws::norm_preservation {

inline constexpr const char* id = "rope.norm_preservation";

inline std::string statement() { return "the rotation preserves the norm of every head vector"; }

}  // namespace pv::laws::norm_preservation
