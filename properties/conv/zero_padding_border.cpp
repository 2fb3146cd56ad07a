// conv.zero_padding_border (CLAIMS.md "p6.conv-carries-neighbours"): on a
// constant picture a zero-padded 3 x 3 convolution gives every interior cell
// the same output, while a border cell loses exactly the contribution of its
// neighbours outside the grid: the padding leaves a trace at the border.
#include "../check.h"

namespace {

using namespace pv;

constexpr int margin = 16;

/// Bit mask of the 3 x 3 taps of cell (r, c) that fall outside the grid.
unsigned missing_mask(std::size_t H, std::size_t W, std::size_t r, std::size_t c) {
  unsigned m = 0;
  for (int dr = 0; dr < 3; ++dr)
    for (int dc = 0; dc < 3; ++dc) {
      long rr = long(r) + dr - 1, cc = long(c) + dc - 1;
      if (rr < 0 || cc < 0 || rr >= long(H) || cc >= long(W)) m |= 1u << (dr * 3 + dc);
    }
  return m;
}

template <class T>
void check_type(const gen::grid& g, const conv3x3<double>& k0, const std::vector<double>& x0,
                bool positive) {
  const auto k = gen::convert_kernel<T>(k0);
  matrix<T> X(g.h * g.w, x0.size());
  for (std::size_t i = 0; i < X.rows; ++i)
    for (std::size_t j = 0; j < X.cols; ++j) X(i, j) = T(x0[j]);
  const auto Y = apply_conv(k, X, g.h, g.w);
  const auto B = conv_error_bound(k, X, g.h, g.w);
  std::vector<int> first(512, -1);  // first cell seen with each missing-tap mask
  for (std::size_t r = 0; r < g.h; ++r)
    for (std::size_t c = 0; c < g.w; ++c) {
      const std::size_t cell = r * g.w + c;
      const unsigned mask = missing_mask(g.h, g.w, r, c);
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
        if (!(d <= B(cell, o)))
          prop::fail("cell (" + std::to_string(r) + ", " + std::to_string(c) + ") channel " +
                     std::to_string(o) + " [" + type_name<T>() + "]: " + to_decimal(Y(cell, o)) +
                     " but the interior value minus the missing taps is " + ref::to_decimal(exact) +
                     ", |diff| = " + ref::to_decimal(d, 17) + " > bound " +
                     ref::to_decimal(B(cell, o), 17));
        // positive kernel and picture: the trace is at least 3 * (1/4)^2 per channel
        if (positive && mask) {
          const hp trace = abs(convert<hp>(Y(cell, o)) - (full));
          if (!(trace > margin * B(cell, o)))
            prop::fail("border cell (" + std::to_string(r) + ", " + std::to_string(c) + ") [" +
                       type_name<T>() + "]: padding trace " + ref::to_decimal(trace, 17) +
                       " not above " + std::to_string(margin) + " x bound " +
                       ref::to_decimal(B(cell, o), 17));
        }
      }
      // cells with the same missing taps: the same operations on the same values
      if (first[mask] < 0) first[mask] = int(cell);
      for (std::size_t o = 0; o < k.c_out; ++o)
        if (!(Y(cell, o) == Y(first[mask], o)))
          prop::fail("cells " + std::to_string(first[mask]) + " and " + std::to_string(cell) +
                     " miss the same taps but differ [" + type_name<T>() + "]: " +
                     to_decimal(Y(first[mask], o)) + " vs " + to_decimal(Y(cell, o)));
    }
}

}  // namespace

PV_PROPERTY("conv.zero_padding_border",
            "on a constant picture (every cell the same vector x) over an H x W grid of any shape "
            "(1..16 per side), the zero-padded 3 x 3 convolution gives out(cell) = b + sum_taps w x "
            "- sum_{taps outside the grid} w x: cells missing the same taps (e.g. all interior "
            "cells) are equal, and border cells carry the trace of the padding; with a positive "
            "kernel and picture (entries in [1/4, 1]) the trace is at least 3/16 per channel",
            "identity: within conv_error_bound gamma_{k+1} (|b| + sum |w x|) of the exact value "
            "(Higham 3.5); equal-mask cells: exact equality (same operations on equal operands); "
            "trace: |out(border) - exact interior value| > 16 x the bound; in hp the bound is at "
            "the reference precision",
            [] {
              const auto g = *gen::flux_grid(16);
              RC_TAG(g.h == g.w ? "square grid" : "non-square grid");
              RC_CLASSIFY(g.h >= 6 && g.w >= 6, "both sides >= 6");
              const auto c_in = *pv::gen::uniform<std::size_t>(1, 4);
              const auto c_out = *pv::gen::uniform<std::size_t>(1, 4);
              const bool positive = *rc::gen::arbitrary<bool>();
              const auto k = *gen::kernel(c_in, c_out, positive);
              const auto xm = *gen::generic_tokens({1, 1, c_in, c_in, false, 0.25, 1.0, positive});
              const std::vector<double> x(xm.a.begin(), xm.a.end());
              RC_TAG(positive ? "positive kernel and picture" : "general kernel");
              check_type<hp>(g, k, x, positive);
              check_type<double>(g, k, x, positive);
              check_type<float>(g, k, x, positive);
            });
