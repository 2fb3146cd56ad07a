// conv.identical_neighbourhoods (CLAIMS.md "p6.identical-centres"): two cells
// whose 3 x 3 neighbourhoods hold the same values (cells outside the grid
// counting as zero) get the same convolution output, so attention after the
// convolution cannot tell them apart either.
#include "../check.h"

namespace {

using namespace pv;

struct placed {
  std::size_t a, b;  ///< the two cells (row-major indices)
};

template <class T>
void expect_rows_equal(const std::string& what, const matrix<T>& Y, std::size_t a, std::size_t b) {
  for (std::size_t c = 0; c < Y.cols; ++c)
    if (!(Y(a, c) == Y(b, c)))
      prop::fail(what + " [" + type_name<T>() + "]: cells " + std::to_string(a) + " and " +
                 std::to_string(b) + " differ in channel " + std::to_string(c) + ": " +
                 to_decimal(Y(a, c)) + " vs " + to_decimal(Y(b, c)));
}

template <class T>
void check_type(const gen::grid& g, const conv3x3<double>& k0, const matrix<double>& X0,
                const placed& p) {
  const auto k = gen::convert_kernel<T>(k0);
  const auto X = convert_matrix<T>(X0);
  const auto Y = apply_conv(k, X, g.h, g.w);
  expect_rows_equal<T>("conv output", Y, p.a, p.b);
  const auto A = attention(Y, Y, Y);
  expect_rows_equal<T>("attention(conv) output", A, p.a, p.b);
}

}  // namespace

PV_PROPERTY("conv.identical_neighbourhoods",
            "on an H x W grid (any shape, H or W >= 4, up to 8 x 8), two cells A, B at least 3 "
            "apart whose 3 x 3 neighbourhoods are made identical (copied, with zeros where the "
            "other cell's neighbour lies outside the grid) get identical zero-padded convolution "
            "outputs, and identical rows of self-attention over the convolution output",
            "exact equality in every type: both outputs come from the same sequence of rounded "
            "operations on equal operands (a skipped outside tap and an added w * 0 leave the "
            "same value), and equal query rows give equal attention rows; no rounding bound is "
            "needed",
            [] {
              const auto g = *rc::gen::oneOf(gen::flux_grid_min(4, 1, 8), gen::flux_grid_min(1, 4, 8));
              const auto c_in = *pv::gen::uniform<std::size_t>(1, 4);
              const auto c_out = *pv::gen::uniform<std::size_t>(1, 4);
              const auto k = *gen::kernel(c_in, c_out);
              auto X = *gen::tokens({g.h * g.w, g.h * g.w, c_in, c_in, false, false});
              // A anywhere; B among the cells at Chebyshev distance >= 3 from A.
              const std::size_t a = *pv::gen::uniform<std::size_t>(0, g.h * g.w);
              const long ar = long(a / g.w), ac = long(a % g.w);
              std::vector<std::size_t> far;
              for (std::size_t c = 0; c < g.h * g.w; ++c)
                if (std::max(std::abs(long(c / g.w) - ar), std::abs(long(c % g.w) - ac)) >= 3)
                  far.push_back(c);
              const std::size_t b = far[*pv::gen::uniform<std::size_t>(0, far.size())];
              const long br = long(b / g.w), bc = long(b % g.w);
              auto inside = [&](long r, long c) { return r >= 0 && c >= 0 && r < long(g.h) && c < long(g.w); };
              for (long dr = -1; dr <= 1; ++dr)
                for (long dc = -1; dc <= 1; ++dc) {
                  const bool ia = inside(ar + dr, ac + dc), ib = inside(br + dr, bc + dc);
                  for (std::size_t i = 0; i < c_in; ++i) {
                    if (ia && ib) X((br + dr) * g.w + bc + dc, i) = X((ar + dr) * g.w + ac + dc, i);
                    else if (ia) X((ar + dr) * g.w + ac + dc, i) = 0;
                    else if (ib) X((br + dr) * g.w + bc + dc, i) = 0;
                  }
                }
              const placed p{a, b};
              RC_LOG() << "picture " << to_string(X) << ", cells " << a << " and " << b << "\n";
              const bool border = !(ar > 0 && ac > 0 && ar + 1 < long(g.h) && ac + 1 < long(g.w)) ||
                                  !(br > 0 && bc > 0 && br + 1 < long(g.h) && bc + 1 < long(g.w));
              RC_TAG(border ? "a border cell" : "two interior cells");
              check_type<hp>(g, k, X, p);
              check_type<double>(g, k, X, p);
              check_type<float>(g, k, X, p);
            });
