// A 3 x 3 convolution with zero padding over an H x W grid of cells, as in
// the U-Net blocks of problem 6. Cells are rows of X in row-major grid order
// (cell (r, c) is row r * W + c); channels are columns.
#pragma once

#include "numerics/fault.h"
#include "numerics/matrix.h"

#include <cassert>
#include <vector>

namespace pv {

template <class T>
struct conv3x3 {
  std::size_t c_in = 0, c_out = 0;
  std::vector<T> w;     ///< w[((o * c_in + i) * 3 + dr) * 3 + dc], dr, dc in 0..2
  std::vector<T> bias;  ///< c_out entries

  T& at(std::size_t o, std::size_t i, int dr, int dc) {
    return w[((o * c_in + i) * 3 + dr) * 3 + dc];
  }
  const T& at(std::size_t o, std::size_t i, int dr, int dc) const {
    return w[((o * c_in + i) * 3 + dr) * 3 + dc];
  }
  static conv3x3 zeros(std::size_t ci, std::size_t co) {
    conv3x3 k;
    k.c_in = ci;
    k.c_out = co;
    k.w.assign(ci * co * 9, T(0));
    k.bias.assign(co, T(0));
    return k;
  }
};

/// out(r, c) = bias + sum over the 3 x 3 neighbourhood of w * X; cells outside
/// the grid count as zero (zero padding).
template <class T>
matrix<T> apply_conv(const conv3x3<T>& k, const matrix<T>& X, std::size_t H, std::size_t W) {
  assert(X.rows == H * W && X.cols == k.c_in);
  matrix<T> out(H * W, k.c_out);
  for (std::size_t r = 0; r < H; ++r)
    for (std::size_t c = 0; c < W; ++c)
      for (std::size_t o = 0; o < k.c_out; ++o) {
        T s = k.bias[o];
        const bool middle_only = fault_is(fault::conv_middle_row_only);  // planted fault
        for (int dr = middle_only ? 1 : 0; dr < (middle_only ? 2 : 3); ++dr)
          for (int dc = 0; dc < 3; ++dc) {
            long rr = static_cast<long>(r) + dr - 1, cc = static_cast<long>(c) + dc - 1;
            if (fault_is(fault::conv_circular_padding)) {  // planted fault: wrap around
              rr = (rr + static_cast<long>(H)) % static_cast<long>(H);
              cc = (cc + static_cast<long>(W)) % static_cast<long>(W);
            }
            if (rr < 0 || cc < 0 || rr >= static_cast<long>(H) || cc >= static_cast<long>(W)) continue;
            for (std::size_t i = 0; i < k.c_in; ++i) s += k.at(o, i, dr, dc) * X(rr * W + cc, i);
          }
        out(r * W + c, o) = s;
      }
  return out;
}

/// Row-major grid cells flipped upside down: cell (r, c) -> (H - 1 - r, c).
inline std::vector<std::size_t> vertical_flip(std::size_t H, std::size_t W) {
  std::vector<std::size_t> p(H * W);
  for (std::size_t r = 0; r < H; ++r)
    for (std::size_t c = 0; c < W; ++c) p[r * W + c] = (H - 1 - r) * W + c;
  return p;
}

}  // namespace pv
