// rope.single_frequency_aliasing (CLAIMS.md, core laws; problem 4c): with one
// speed w = 2 pi p / q, a distance D and a distance D + q turn by angles that
// differ by 2 pi p, a whole number of turns, so the two dot products coincide.
// Tolerance: each dot within rope_dot_error_bound, plus |q| |k| delta for the
// stored speed's period defect delta = |q w~ - 2 pi p| (the exact dot is
// f(D w) with |f'| <= |q| |k|): bound().
// Judge: the property (src/properties/rope/single_frequency_aliasing.cpp).
#pragma once

#include "numerics/scalar.h"

#include <string>

namespace pv::laws::single_frequency_aliasing {

inline constexpr const char* id = "rope.single_frequency_aliasing";

inline std::string statement() {
  return "with one speed w = 2 pi p / q (every pair turning at w), positions at distance D and "
         "positions at distance D + q give the same rotated dot product: one frequency cannot "
         "tell distances q apart (a 360-degree wrap)";
}

inline std::string tolerance_rule() {
  return "each side within rope_dot_error_bound (angle rounding u |m| w + 2 ulps of sin/cos, "
         "gamma_2 rotation, gamma_d dot product), plus |q| |k| delta for the stored speed's "
         "period defect delta = |q w~ - 2 pi p| (evaluated exactly in hp for float/double; "
         "bounded by 2 gamma_4 2 pi p for hp): in hp the law holds to the reference precision, "
         "in float/double the tolerance grows with |m| as the angle rounding does";
}

/// The tolerance of one case: the two dots' bounds `b_D`, `b_Dq` plus
/// |q| |k| delta (`norms` = |q| |k|, `defect` = delta).
inline hp bound(const hp& b_D, const hp& b_Dq, const hp& norms, const hp& defect) {
  return b_D + b_Dq + norms * defect;
}

}  // namespace pv::laws::single_frequency_aliasing
