// The carousel's question (problem 4, CLAIMS.md `carousel.d`): the smallest
// distance D > 0 at which every pair of a RoPE ladder has turned to within
// eps of a whole turn, so that D looks like 0. Shared by the claim and by the
// study of the scalings of current models (scaling_horizon.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "numerics/scalar.h"
#include "reference/mp.h"

namespace pv::claims {

/// Distance of x (radians, 0 <= x < 2^52) to the nearest whole turn (of the
/// float64 two_pi), in radians. x - n two_pi for an integer n and a gap below
/// 4 is a multiple of ulp(two_pi) = 2^-50 with at most 52 significant bits,
/// so the fma returns it exactly, as fmod would (a few times faster; the
/// search below calls it some 10^7 times per ladder). Near a half turn a
/// rounded quotient may pick the other whole turn: the gap is then about pi
/// either way, far from any eps.
inline double turn_gap(double x, double two_pi) {
  const double n = std::nearbyint(x / two_pi);
  return std::abs(std::fma(-n, two_pi, x));
}

struct collision_search_result {
  std::int64_t first_hit = 0;  ///< smallest D with every pair within eps; 0: none up to the limit
  std::int64_t best_d = 0;     ///< D of the closest approach (smallest worst-pair gap)
  double best = 1e9;           ///< that worst-pair gap, radians (float64 search)
  std::int64_t first_d = 0;    ///< the first D searched: the fastest pair's first turn
};

/// A collision is a wrap: D must be far enough for the fastest pair to come
/// round once (D w_max >= 2 pi - eps), so that a D at which every angle is
/// still within eps of zero (slow pairs that cannot yet tell D from 0, a
/// question of resolution) is not counted. The search runs over every D from
/// that first one to limit, float64 angles D w_i (relative error a few u, so
/// absolute error below limit * max w * 2^-50 rad: under 1e-8 rad for
/// limit 1e7 and w <= 1, far inside any eps of a degree). The fastest pairs
/// reject almost every D at once: a D stops as soon as its worst pair is
/// worse than both eps and the best so far. `stop_at_first`: return at the
/// first hit.
inline collision_search_result search_collision(const std::vector<double>& w, double eps,
                                                std::int64_t limit, bool stop_at_first = false) {
  const double two_pi = 2 * std::numbers::pi;
  collision_search_result r;
  double fastest = 0;
  for (double s : w) fastest = std::max(fastest, s);
  if (!(fastest > 0)) return r;
  r.first_d = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil((two_pi - eps) / fastest)));
  for (std::int64_t D = r.first_d; D <= limit; ++D) {
    const double dd = static_cast<double>(D);
    double worst = 0;
    std::size_t i = 0;
    for (; i < w.size(); ++i) {
      worst = std::max(worst, turn_gap(dd * w[i], two_pi));
      if (worst > r.best && worst > eps) break;
    }
    if (i < w.size()) continue;
    if (worst <= eps && r.first_hit == 0) {
      r.first_hit = D;
      if (stop_at_first) return r;
    }
    if (worst < r.best) {
      r.best = worst;
      r.best_d = D;
    }
  }
  return r;
}

/// The worst pair's distance to a whole turn at distance D, in degrees, in
/// mpfr (confirms the float64 search).
inline hp worst_turn_gap_deg(const std::vector<hp>& w, std::int64_t D) {
  const hp two_pi = 2 * ref::pi();
  hp worst = 0;
  for (const auto& s : w) {
    hp a = fmod(hp(static_cast<double>(D)) * s, two_pi);
    hp g = std::min(a, hp(two_pi - a));
    worst = std::max(worst, g);
  }
  return worst * 180 / ref::pi();
}

}  // namespace pv::claims
