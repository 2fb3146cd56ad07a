// conv.flip_breaks_symmetry (CLAIMS.md "p5.conv-first", "p6.conv-carries-
// neighbours"): attention alone only flips its outputs when the grid is
// flipped upside down, but a zero-padded 3 x 3 convolution in front that is
// not symmetric top-to-bottom makes the result depend on up and down.
#include "../check.h"

namespace {

using namespace pv;

constexpr int margin = 16;

/// The entry where |a - b| exceeds bound the most: (ratio, diff, bound, i, c).
template <class T>
std::tuple<hp, hp, hp, std::size_t, std::size_t> largest_excess(const matrix<T>& a,
                                                                 const matrix<T>& b,
                                                                 const matrix<hp>& bound) {
  std::tuple<hp, hp, hp, std::size_t, std::size_t> best{hp(-1), hp(0), hp(0), 0, 0};
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t c = 0; c < a.cols; ++c) {
      const hp diff = abs(convert<hp>(a(i, c)) - convert<hp>(b(i, c)));
      const hp ratio = diff / bound(i, c);
      if (ratio > std::get<0>(best)) best = {ratio, diff, bound(i, c), i, c};
    }
  return best;
}

template <class T>
void expect_exceeds(const std::string& what, const matrix<T>& a, const matrix<T>& b,
                    const matrix<hp>& bound) {
  const auto [ratio, diff, bnd, i, c] = largest_excess(a, b, bound);
  if (!(ratio > margin))
    prop::fail(what + " [" + type_name<T>() + "]: still equal within rounding; largest "
               "difference at (" + std::to_string(i) + ", " + std::to_string(c) + ") is " +
               ref::to_decimal(diff, 17) + ", only " + ref::to_decimal(ratio, 6) +
               " times the bound " + ref::to_decimal(bnd, 17) + " (need > " +
               std::to_string(margin) + ")");
}

template <class T>
void check_type(const gen::grid& g, const conv3x3<double>& k0, const matrix<double>& X0) {
  const auto k = gen::convert_kernel<T>(k0);
  const auto X = convert_matrix<T>(X0);
  const auto flip = vertical_flip(g.h, g.w);
  const auto FX = permute_rows(X, flip);
  const auto Y1 = apply_conv(k, FX, g.h, g.w);  // conv of the flipped picture
  const auto Y2 = apply_conv(k, X, g.h, g.w);
  const auto FY2 = permute_rows(Y2, flip);       // the flipped conv output
  const auto B1 = conv_error_bound(k, FX, g.h, g.w), B2 = conv_error_bound(k, X, g.h, g.w);
  auto FB2 = permute_rows(B2, flip);
  matrix<hp> Bc = FB2;
  for (std::size_t i = 0; i < Bc.a.size(); ++i) Bc.a[i] += B1.a[i];
  expect_exceeds<T>("conv(flip X) vs flip conv(X)", Y1, FY2, Bc);
  // With attention after the convolution (self-attention of the conv output).
  const auto A1 = attention(Y1, Y1, Y1);
  const auto A2 = permute_rows(attention(Y2, Y2, Y2), flip);
  auto BA1 = attention_forward_bound(Y1, Y1, Y1, B1, B1, B1);
  const auto BA2 = permute_rows(attention_forward_bound(Y2, Y2, Y2, B2, B2, B2), flip);
  for (std::size_t i = 0; i < BA1.a.size(); ++i) BA1.a[i] += BA2.a[i];
  expect_exceeds<T>("attention(conv(flip X)) vs flip attention(conv(X))", A1, A2, BA1);
}

}  // namespace

PV_PROPERTY("conv.flip_breaks_symmetry",
            "a zero-padded 3 x 3 convolution whose bottom kernel row exceeds its top row "
            "(w[2][dc] - w[0][dc] >= 1/8 for every column and channel pair) breaks the flip law: "
            "conv(flip X) != flip conv(X), and attention(conv(flip X)) != flip "
            "attention(conv(X)), for pictures of H >= 2 rows (H x W up to 5 x 5, any shape) with "
            "positive entries in [1/4, 1]. For such inputs the exact convolution difference at "
            "the bottom row is (w2 - w0) . (0 - X(row 1)), at least 1/32 in size: the generic "
            "condition makes the break provable at the convolution stage",
            "both stages: the largest difference must exceed 16 times the sum of the two "
            "evaluations' a-priori errors (conv: gamma_{k+1} (|b| + sum |w x|), Higham 3.5; "
            "attention: attention_forward_bound with the conv errors as input errors); in hp the "
            "bound is at the reference precision",
            [] {
              const auto g = *gen::flux_grid_min(2, 1, 5);
              const auto c_in = *pv::gen::uniform<std::size_t>(1, 4);
              const auto c_out = *pv::gen::uniform<std::size_t>(1, 5);
              const auto k = *gen::flip_asymmetric_kernel(c_in, c_out);
              const auto X = *gen::generic_tokens({g.h * g.w, g.h * g.w, c_in, c_in, false, 0.25,
                                                   1.0, true});
              RC_TAG(g.h == g.w ? "square" : "non-square");
              check_type<hp>(g, k, X);
              check_type<double>(g, k, X);
              check_type<float>(g, k, X);
            });
