// rope.composition: R(b) R(a) = R(a + b), rotations by angles a w_k and
// b w_k adding up (the group law behind the chapter's "rope.relative").
// Judge: the black-box check (blackbox/rope_laws.cpp).
#pragma once

#include <string>

namespace pv::laws::composition {

inline constexpr const char* id = "rope.composition";

inline std::string statement() {
  return "rotating by a and then by b equals rotating by a + b: R(b) R(a) x = R(a + b) x";
}

}  // namespace pv::laws::composition
