// Which rows of a batch are outside their tolerance, read from the case
// itself: the diagnosis of rope.rows and sinusoid.rows, whose row r repeats
// row r mod D of its D distinct rows. It names the ranges of rows and says
// when they are exactly the batch's last, partial tile of 16 or 64 rows.
#pragma once

#include "core/ranges.h"
#include "numerics/matrix.h"

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace pv::blackbox {

/// Which rows of a case are outside their tolerance (in binary64,
/// each row r against pair r mod D), as ranges, and whether they are exactly
/// the batch's last, partial tile of 16 or 64 rows: the diagnosis of a
/// failure, read from the case itself.
template <class T>
inline std::string rows_outside(const matrix<T>& y, const matrix<double>& ref, const matrix<double>& tol, std::size_t D) {
  const std::size_t n = y.rows;
  std::vector<bool> bad(n, false);
  std::size_t count = 0;
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t c = 0; c < y.cols && !bad[r]; ++c)
      bad[r] = !(std::abs(double(y(r, c)) - ref(r % D, c)) <= tol(r % D, c));
    count += bad[r];
  }
  std::vector<std::size_t> rows;
  for (std::size_t r = 0; r < n; ++r)
    if (bad[r]) rows.push_back(r);
  std::string t = std::to_string(count) + " of " + std::to_string(n) + " rows outside their tolerance: " +
                  text::ranges(rows, "-", "");
  for (std::size_t tile : {64u, 16u}) {
    const std::size_t tail = n % tile;
    if (!tail || n < tile || count != tail) continue;
    bool last = true;
    for (std::size_t r = n - tail; r < n; ++r) last = last && bad[r];
    if (last)
      return t + ": exactly the last " + std::to_string(tail) + " rows, the partial tile past the last full tile of " +
             std::to_string(tile) + " rows (a tail the kernel does not handle)";
  }
  return t;
}

}  // namespace pv::blackbox
