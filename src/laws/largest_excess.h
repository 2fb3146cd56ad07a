// The witness of a law that must be broken: where a difference exceeds its
// rounding bound the most. A law of the form "X != Y" is proved on a case
// when some entry differs by more than a margin times the sum of the two
// evaluations' a-priori errors, so the difference cannot be rounding
// (conv/flip_breaks_symmetry.h, encoding/breaks_permutation_symmetry.h).
#pragma once

#include "numerics/matrix.h"
#include "numerics/scalar.h"

#include <cstddef>

namespace pv::laws {

struct largest_excess {
  hp ratio = -1;  ///< the largest |diff| / bound seen
  hp diff = 0, bound = 0;
  std::size_t row = 0, col = 0;

  /// Considers entry (r, c) with difference `d` and rounding bound `b`.
  void consider(const hp& d, const hp& b, std::size_t r, std::size_t c) {
    const hp q = d / b;
    if (q > ratio) ratio = q, diff = d, bound = b, row = r, col = c;
  }
  /// The witness: the difference exceeds `margin` times its bound.
  bool exceeds(int margin) const { return ratio > margin; }
};

/// The largest excess of |a - b| over `bound`, entry by entry.
template <class T>
largest_excess excess_of(const matrix<T>& a, const matrix<T>& b, const matrix<hp>& bound) {
  largest_excess x;
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t c = 0; c < a.cols; ++c)
      x.consider(abs(convert<hp>(a(i, c)) - convert<hp>(b(i, c))), bound(i, c), i, c);
  return x;
}

}  // namespace pv::laws
