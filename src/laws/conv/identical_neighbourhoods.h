// conv.identical_neighbourhoods (CLAIMS.md "p6.identical-centres"), written
// once: two cells whose 3 x 3 neighbourhoods hold the same values (cells
// outside the grid counting as zero) get the same convolution output, so
// attention after the convolution cannot tell them apart either.
//
// The case: two cells a, b at least 3 apart (their neighbourhoods do not
// overlap) whose neighbourhoods make_identical() copies from a to b, with
// zeros where the other cell's neighbour lies outside the grid. Tolerance:
// none, exact equality in every type (the same sequence of rounded operations
// on equal operands; a skipped outside tap and an added w * 0 leave the same
// value; equal query rows give equal attention rows).
// Judge: the property (src/properties/conv/identical_neighbourhoods.cpp), which
// draws the grid, the kernel, the picture and the two cells.
#pragma once

#include "numerics/attention.h"
#include "numerics/conv.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace pv::laws::identical_neighbourhoods {

inline constexpr const char* id = "conv.identical_neighbourhoods";

inline std::string statement() {
  return "on an H x W grid (any shape, H or W >= 4, up to 8 x 8), two cells A, B at least 3 "
         "apart whose 3 x 3 neighbourhoods are made identical (copied, with zeros where the "
         "other cell's neighbour lies outside the grid) get identical zero-padded convolution "
         "outputs, and identical rows of self-attention over the convolution output";
}

inline std::string tolerance_rule() {
  return "exact equality in every type: both outputs come from the same sequence of rounded "
         "operations on equal operands (a skipped outside tap and an added w * 0 leave the "
         "same value), and equal query rows give equal attention rows; no rounding bound is "
         "needed";
}

/// The distance two cells of a case keep (Chebyshev, in cells).
inline constexpr long min_distance = 3;

/// The cells of an H x W grid at least min_distance from cell a.
inline std::vector<std::size_t> far_cells(std::size_t H, std::size_t W, std::size_t a) {
  const long ar = long(a / W), ac = long(a % W);
  std::vector<std::size_t> far;
  for (std::size_t c = 0; c < H * W; ++c)
    if (std::max(std::abs(long(c / W) - ar), std::abs(long(c % W) - ac)) >= min_distance) far.push_back(c);
  return far;
}

/// Makes the neighbourhoods of cells a and b of picture X identical: b's
/// neighbours copied from a's, and a neighbour zeroed where the other cell's
/// lies outside the grid.
template <class T>
void make_identical(matrix<T>& X, std::size_t H, std::size_t W, std::size_t a, std::size_t b) {
  const long ar = long(a / W), ac = long(a % W), br = long(b / W), bc = long(b % W);
  auto inside = [&](long r, long c) { return r >= 0 && c >= 0 && r < long(H) && c < long(W); };
  for (long dr = -1; dr <= 1; ++dr)
    for (long dc = -1; dc <= 1; ++dc) {
      const bool ia = inside(ar + dr, ac + dc), ib = inside(br + dr, bc + dc);
      for (std::size_t i = 0; i < X.cols; ++i) {
        if (ia && ib) X((br + dr) * long(W) + bc + dc, i) = X((ar + dr) * long(W) + ac + dc, i);
        else if (ia) X((ar + dr) * long(W) + ac + dc, i) = 0;
        else if (ib) X((br + dr) * long(W) + bc + dc, i) = 0;
      }
    }
}

/// The first channel where rows a and b of an output differ (found false: none).
template <class T>
struct mismatch {
  bool found = false;
  std::size_t channel = 0;
  T at_a{}, at_b{};
};

template <class T>
mismatch<T> compare(const matrix<T>& Y, std::size_t a, std::size_t b) {
  mismatch<T> m;
  for (std::size_t c = 0; c < Y.cols; ++c)
    if (!(Y(a, c) == Y(b, c))) return {true, c, Y(a, c), Y(b, c)};
  return m;
}

/// The law at both stages: the convolution output and self-attention over it.
template <class T>
struct outcome {
  mismatch<T> conv, attention;
  bool holds() const { return !conv.found && !attention.found; }
};

/// evaluate(case, T): kernel k and picture X in T, cells a and b.
template <class T>
outcome<T> evaluate(const conv3x3<T>& k, const matrix<T>& X, std::size_t H, std::size_t W, std::size_t a,
                    std::size_t b) {
  const auto Y = apply_conv(k, X, H, W);
  const auto A = attention(Y, Y, Y);
  return {compare(Y, a, b), compare(A, a, b)};
}

}  // namespace pv::laws::identical_neighbourhoods
