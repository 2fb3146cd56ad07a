// Problem 6 claims. The convolution figures are exact in float64 here (the
// data are multiples of 1/4 and 1/8, sums far below 2^53), so a plain
// float64 convolution written in the test is an exact independent route.
#include "claims/common.h"
#include "claims_test_util.h"

#include <set>

namespace pv::claims::test {
namespace claims_problem6_test {  // this file's names: a unity build compiles several test files as one
namespace {

using grid = std::vector<std::vector<double>>;  // cells row-major x channels

/// Zero-padded 3 x 3 convolution, w(o, i, dr, dc) given as a function.
template <class W>
grid conv(const grid& X, std::size_t H, std::size_t Wd, std::size_t co, W w) {
  const std::size_t ci = X[0].size();
  grid Y(H * Wd, std::vector<double>(co, 0.0));
  for (std::size_t r = 0; r < H; ++r)
    for (std::size_t c = 0; c < Wd; ++c)
      for (std::size_t o = 0; o < co; ++o)
        for (int dr = -1; dr <= 1; ++dr)
          for (int dc = -1; dc <= 1; ++dc) {
            long rr = static_cast<long>(r) + dr, cc = static_cast<long>(c) + dc;
            if (rr < 0 || cc < 0 || rr >= static_cast<long>(H) || cc >= static_cast<long>(Wd)) continue;
            for (std::size_t i = 0; i < ci; ++i)
              Y[r * Wd + c][o] += w(o, i, dr + 1, dc + 1) * X[static_cast<std::size_t>(rr) * Wd + static_cast<std::size_t>(cc)][i];
          }
  return Y;
}

/// The claims' fixed kernel: entry index ((o c_in + i) 3 + dr) 3 + dc.
auto fixed_w(std::size_t ci, std::size_t salt) {
  return [ci, salt](std::size_t o, std::size_t i, int dr, int dc) {
    std::size_t idx = ((o * ci + i) * 3 + static_cast<std::size_t>(dr)) * 3 + static_cast<std::size_t>(dc);
    return fixed_entry(idx, idx % 5, salt);
  };
}

TEST(Problem6Claims, SdNoEncodingAt4096Tokens) {
  auto r = run_claim("p6.sd-no-encoding");
  EXPECT_EQ(int_value(r, "tokens"), 64 * 64);
  const std::size_t n = 4096;
  std::vector<std::vector<double>> X(n, std::vector<double>(4));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < 4; ++j) X[i][j] = hashed_entry(i, j, 12);
  auto perm = fixed_permutation(n);
  std::vector<std::vector<double>> PX;
  for (auto p : perm) PX.push_back(X[p]);
  auto A = ieee_attention(X), B = ieee_attention(PX);
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < 4; ++c) worst = std::max(worst, std::abs(B[i][c] - A[perm[i]][c]));
  EXPECT_EQ(value(r, "max_abs_diff").to_double(), worst);
  EXPECT_TRUE(near_zero(value(r, "max_abs_diff_hp_8x8"), 1e-70));
  EXPECT_EQ(r.result, verdict::holds_qualified);
}

TEST(Problem6Claims, AttentionOnlyIsBlindToUpAndDown) {
  auto r = run_claim("p6.attention-only-blind");
  EXPECT_TRUE(near_zero(value(r, "max_abs_diff_hp"), 1e-70));
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(Problem6Claims, ConvolutionCarriesNeighboursAndBorders) {
  auto r = run_claim("p6.conv-carries-neighbours");
  const std::size_t H = 6, W = 5;
  grid X(H * W, std::vector<double>(2));
  for (std::size_t i = 0; i < H * W; ++i)
    for (std::size_t ch = 0; ch < 2; ++ch) X[i][ch] = fixed_entry(i, ch, 15);
  auto flip = [&](const grid& G) {
    grid F(G.size());
    for (std::size_t rr = 0; rr < H; ++rr)
      for (std::size_t c = 0; c < W; ++c) F[rr * W + c] = G[(H - 1 - rr) * W + c];
    return F;
  };
  auto A = conv(flip(X), H, W, 2, fixed_w(2, 14)), B = flip(conv(X, H, W, 2, fixed_w(2, 14)));
  double fd = 0;
  for (std::size_t i = 0; i < A.size(); ++i)
    for (std::size_t ch = 0; ch < 2; ++ch) fd = std::max(fd, std::abs(A[i][ch] - B[i][ch]));
  grid ones(H * W, std::vector<double>(2, 1.0));
  auto C = conv(ones, H, W, 2, fixed_w(2, 14));
  double border = 0;
  for (std::size_t rr = 0; rr < H; ++rr)
    for (std::size_t c = 0; c < W; ++c)
      if (rr == 0 || c == 0 || rr == H - 1 || c == W - 1)
        for (std::size_t ch = 0; ch < 2; ++ch)
          border = std::max(border, std::abs(C[rr * W + c][ch] - C[2 * W + 2][ch]));
  EXPECT_TRUE(agrees(value(r, "flip_max_abs_diff_hp"), mp(fd)));
  EXPECT_TRUE(agrees(value(r, "border_vs_interior_diff_hp"), mp(border)));
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(Problem6Claims, IdenticalCentresGetIdenticalOutputs) {
  auto r = run_claim("p6.identical-centres");
  EXPECT_EQ(value_text(r, "max_abs_diff_hp"), "0");
  const std::size_t H = 9, W = 9;
  grid X(H * W, std::vector<double>(2));
  for (std::size_t rr = 0; rr < H; ++rr)
    for (std::size_t c = 0; c < W; ++c)
      for (std::size_t ch = 0; ch < 2; ++ch) X[rr * W + c][ch] = fixed_entry(rr * 3 + c % 3, ch, 16);
  auto C = conv(X, H, W, 2, fixed_w(2, 17));
  double contrast = 0;
  for (std::size_t ch = 0; ch < 2; ++ch) {
    EXPECT_EQ(C[4 * W + 3][ch], C[4 * W + 6][ch]);
    contrast = std::max(contrast, std::abs(C[4 * W + 3][ch] - C[4 * W + 4][ch]));
  }
  EXPECT_TRUE(agrees(value(r, "contrast_other_cell_hp"), mp(contrast)));
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(Problem6Claims, PositionReachesKCellsFromTheBorder) {
  auto r = run_claim("p6.conv-position-unmeasured");
  const std::size_t H = 16, W = 16;
  grid Y(H * W, std::vector<double>(1, 1.0));
  auto w = [](std::size_t, std::size_t, int dr, int dc) { return (1.0 + 3 * dr + dc) / 8; };
  std::vector<std::int64_t> distinct, band;
  for (int k = 1; k <= 4; ++k) {
    Y = conv(Y, H, W, 1, w);  // exact: multiples of 8^-k below 2^12
    std::set<double> values;
    for (const auto& v : Y) values.insert(v[0]);
    distinct.push_back(static_cast<std::int64_t>(values.size()));
    std::int64_t b = 0;
    for (std::size_t rr = 0; rr < H; ++rr)
      for (std::size_t c = 0; c < W; ++c)
        if (Y[rr * W + c][0] != Y[8 * W + 8][0])
          b = std::max<std::int64_t>(b, static_cast<std::int64_t>(std::min({rr, c, H - 1 - rr, W - 1 - c})) + 1);
    band.push_back(b);
    // Closed form for a generic kernel: (2k + 1)^2 classes, reach k.
    EXPECT_EQ(distinct.back(), (2 * k + 1) * (2 * k + 1));
    EXPECT_EQ(b, k);
  }
  EXPECT_EQ(int_array(r, "distinct_cells"), distinct);
  EXPECT_EQ(int_array(r, "distinguishable_band"), band);
  EXPECT_EQ(int_array(r, "cells_like_centre"), (std::vector<std::int64_t>{14 * 14, 12 * 12, 10 * 10, 8 * 8}));
  EXPECT_EQ(r.result, verdict::holds_qualified);
}

TEST(Problem6Claims, FluxBagAndRotations) {
  auto r = run_claim("p6.flux-bag");
  EXPECT_EQ(int_value(r, "tokens"), (1024 / 16) * (1024 / 16));
  EXPECT_TRUE(near_zero(value(r, "bag_max_abs_diff"), 1e-70));
  EXPECT_EQ(value_text(r, "rope_same_row_angle_diff"), "0");
  // RoPE on a 4 x 4 grid, FLUX axes [16, 56, 56], rotated queries and keys,
  // values unrotated: plain MPFR.
  const std::size_t n = 16, d = 128;
  auto perm = fixed_permutation(n);
  auto run = [&](bool permuted) {
    mp_rows X(n, std::vector<mp>(d)), R;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < d; ++j) X[i][j] = fixed_entry(permuted ? perm[i] : i, j, 19);
    const std::size_t dims[3] = {16, 56, 56}, offs[3] = {0, 16, 72};
    for (std::size_t i = 0; i < n; ++i) {
      const double pos[3] = {0, static_cast<double>(i / 4), static_cast<double>(i % 4)};
      std::vector<mp> x = X[i];
      for (std::size_t ax = 0; ax < 3; ++ax)
        for (std::size_t p = 0; p < dims[ax] / 2; ++p) {
          std::size_t a = offs[ax] + 2 * p, b = a + 1;
          mp ang = mp(pos[ax]) * mpow(mp(10000), -mp(2.0 * p) / mp(static_cast<double>(dims[ax])));
          mp c = mcos(ang), s = msin(ang);
          x[a] = X[i][a] * c - X[i][b] * s;
          x[b] = X[i][a] * s + X[i][b] * c;
        }
      R.push_back(x);
    }
    return mp_attention(R, R, X);
  };
  auto A = run(false), B = run(true);
  mp diff = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) diff = mmax(diff, mabs(B[i][j] - A[perm[i]][j]));
  EXPECT_TRUE(agrees(value(r, "rope_permutation_max_abs_diff"), diff));
  EXPECT_EQ(r.result, verdict::holds);
}

}  // namespace
}  // namespace claims_problem6_test
}  // namespace pv::claims::test
