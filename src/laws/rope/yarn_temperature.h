// rope.yarn.temperature: YaRN (Peng et al. 2023, section 3.4) multiplies the
// rotated q and k by a = 0.1 ln s + 1, so q and k at one position (rotations
// cancelling) score a^2 q.k.
// Judge: the black-box check (blackbox/rope_scaled_laws.cpp).
#pragma once

#include <string>

namespace pv::laws::yarn_temperature {

inline constexpr const char* id = "rope.yarn.temperature";

/// `a` is the temperature a = 0.1 ln s + 1, written out in decimal.
inline std::string statement(const std::string& a) {
  return "YaRN's attention temperature scales the logits: q and k rotated at the same position "
         "score a^2 (q.k), a = 0.1 ln s + 1 = " + a;
}

}  // namespace pv::laws::yarn_temperature
