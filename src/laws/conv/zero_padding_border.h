// conv.zero_padding_border (CLAIMS.md "p6.conv-carries-neighbours"), written
// once: on a constant picture a zero-padded 3 x 3 convolution gives every
// interior cell the same output, while a border cell loses exactly the
// contribution of its neighbours outside the grid: the padding leaves a trace
// at the border.
//
// Three checks per cell and channel, in this order (evaluate()):
//   identity: out(cell) within conv_error_bound (gamma_{k+1} (|b| + sum |w x|),
//     Higham 3.5) of b + sum_taps w x - sum_{taps outside} w x, exactly;
//   trace (positive kernel and picture, border cells): |out - the interior
//     value| > margin x that bound;
//   same mask: cells missing the same taps are bitwise equal (the same
//     operations on equal operands).
// Judge: the property (src/properties/conv/zero_padding_border.cpp), which draws
// the grid, the kernel and the constant vector.
#pragma once

#include "laws/tally.h"
#include "numerics/conv.h"
#include "numerics/error_bounds.h"

#include <string>
#include <vector>

namespace pv::laws::zero_padding_border {

inline constexpr const char* id = "conv.zero_padding_border";

/// The margin by which a border cell's trace must exceed the rounding bound.
inline constexpr int margin = 16;

inline std::string statement() {
  return "on a constant picture (every cell the same vector x) over an H x W grid of any shape "
         "(1..16 per side), the zero-padded 3 x 3 convolution gives out(cell) = b + sum_taps w x "
         "- sum_{taps outside the grid} w x: cells missing the same taps (e.g. all interior "
         "cells) are equal, and border cells carry the trace of the padding; with a positive "
         "kernel and picture (entries in [1/4, 1]) the trace is at least 3/16 per channel";
}

inline std::string tolerance_rule() {
  return "identity: within conv_error_bound gamma_{k+1} (|b| + sum |w x|) of the exact value "
         "(Higham 3.5); equal-mask cells: exact equality (same operations on equal operands); "
         "trace: |out(border) - exact interior value| > 16 x the bound; in hp the bound is at "
         "the reference precision";
}

/// Bit mask of the 3 x 3 taps of cell (r, c) that fall outside the grid.
inline unsigned missing_mask(std::size_t H, std::size_t W, std::size_t r, std::size_t c) {
  unsigned m = 0;
  for (int dr = 0; dr < 3; ++dr)
    for (int dc = 0; dc < 3; ++dc) {
      long rr = long(r) + dr - 1, cc = long(c) + dc - 1;
      if (rr < 0 || cc < 0 || rr >= long(H) || cc >= long(W)) m |= 1u << (dr * 3 + dc);
    }
  return m;
}

/// The constant picture of `cells` rows, each the vector x rounded to T.
template <class T>
matrix<T> constant_picture(std::size_t cells, const std::vector<double>& x) {
  matrix<T> X(cells, x.size());
  for (std::size_t i = 0; i < X.rows; ++i)
    for (std::size_t j = 0; j < X.cols; ++j) X(i, j) = T(x[j]);
  return X;
}

enum class check { identity, trace, same_mask };

/// One check as a judge's visitor sees it, at cell (row, col) = `cell`,
/// channel `channel`: `out` the output there; identity: `value` the exact
/// value, `diff` |out - value|; trace: `value` the interior value, `diff`
/// |out - value|; same mask: `other` the first cell with the same mask and
/// `other_out` its output. `bound` the entry's conv_error_bound; `ok` the
/// check's verdict.
template <class T>
struct entry {
  check kind;
  std::size_t row, col, cell, channel, other;
  const T& out;
  const T& other_out;
  const hp& value;
  const hp& diff;
  const hp& bound;
  bool ok;
};

using outcome = tally;

/// evaluate(case, T): kernel k (in T) on the constant picture X over an
/// H x W grid; `positive`: the kernel and picture are positive, so border
/// cells must show the trace. `visit(entry)` sees every check and returns
/// false to stop.
template <class T, class Visit>
outcome evaluate(const conv3x3<T>& k, const matrix<T>& X, std::size_t H, std::size_t W, bool positive,
                 Visit&& visit) {
  outcome res;
  auto seen = [&](const entry<T>& e) {
    res.count(e.ok);
    return visit(e);
  };
  const auto Y = apply_conv(k, X, H, W);
  const auto B = conv_error_bound(k, X, H, W);
  std::vector<int> first(512, -1);  // first cell seen with each missing-tap mask
  const hp none = 0;
  for (std::size_t r = 0; r < H; ++r)
    for (std::size_t c = 0; c < W; ++c) {
      const std::size_t cell = r * W + c;
      const unsigned mask = missing_mask(H, W, r, c);
      for (std::size_t o = 0; o < k.c_out; ++o) {
        // exact: full-neighbourhood value minus the missing taps' contribution
        hp full = convert<hp>(k.bias[o]), missing = 0;
        for (int t = 0; t < 9; ++t)
          for (std::size_t i = 0; i < k.c_in; ++i) {
            const hp term = convert<hp>(k.at(o, i, t / 3, t % 3)) * convert<hp>(X(cell, i));
            full += term;
            if (mask >> t & 1) missing += term;
          }
        const hp exact = full - missing;
        const hp d = abs(convert<hp>(Y(cell, o)) - exact);
        if (!seen({check::identity, r, c, cell, o, cell, Y(cell, o), Y(cell, o), exact, d, B(cell, o),
                   d <= B(cell, o)}))
          return res;
        // positive kernel and picture: the trace is at least 3 * (1/4)^2 per channel
        if (positive && mask) {
          const hp trace = abs(convert<hp>(Y(cell, o)) - (full));
          if (!seen({check::trace, r, c, cell, o, cell, Y(cell, o), Y(cell, o), full, trace, B(cell, o),
                     trace > margin * B(cell, o)}))
            return res;
        }
      }
      // cells with the same missing taps: the same operations on the same values
      if (first[mask] < 0) first[mask] = int(cell);
      const std::size_t f = std::size_t(first[mask]);
      for (std::size_t o = 0; o < k.c_out; ++o)
        if (!seen({check::same_mask, r, c, cell, o, f, Y(cell, o), Y(f, o), none, none, B(cell, o),
                   Y(cell, o) == Y(f, o)}))
          return res;
    }
  return res;
}

}  // namespace pv::laws::zero_padding_border
