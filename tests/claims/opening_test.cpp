// Opening claims against independent routes: plain MPFR attention (no max
// subtraction) for the exact law, and a separate float64/float32 loop for
// the IEEE figures.
#include "claims/common.h"
#include "claims_test_util.h"
#include "claims/proofs/bitwise_study.h"

#include <cstring>

namespace pv::claims::test {
namespace claims_opening_test {  // this file's names: a unity build compiles several test files as one
namespace {

template <class T>
std::vector<std::vector<T>> six_cells() {
  std::vector<std::vector<T>> X(6, std::vector<T>(4));
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 4; ++j)
      X[i][j] = T(static_cast<double>((5 * i + 3 * j) % 7) / 4.0 - 0.75 + 1.0 / static_cast<double>(i + j + 3));
  return X;
}

template <class T>
double ieee_six_cell_diff(bool& bitwise, double* ulps = nullptr) {
  auto X = six_cells<T>();
  const std::vector<std::size_t> perm = {5, 2, 4, 0, 1, 3};
  std::vector<std::vector<T>> PX;
  for (auto p : perm) PX.push_back(X[p]);
  auto A = ieee_attention(X), B = ieee_attention(PX);
  double worst = 0;
  bitwise = true;
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t c = 0; c < 4; ++c) {
      T a = B[i][c], b = A[perm[i]][c];
      worst = std::max(worst, std::abs(static_cast<double>(a) - static_cast<double>(b)));
      if (ulps) {
        double ulp = static_cast<double>(std::nextafter(std::abs(b), T(INFINITY)) - std::abs(b));
        *ulps = std::max(*ulps, std::abs(static_cast<double>(a) - static_cast<double>(b)) / ulp);
      }
      bitwise = bitwise && std::memcmp(&a, &b, sizeof(T)) == 0;
    }
  return worst;
}

TEST(OpeningClaims, SixCellsFiguresMatchAnIndependentEvaluation) {
  auto r = run_claim("perm.six-cells");
  // Real arithmetic: the outputs only move; the hp residual is rounding.
  EXPECT_TRUE(near_zero(value(r, "max_abs_diff_hp"), 1e-70));
  bool bit64 = false, bit32 = false;
  double u64 = 0, u32 = 0;
  double d64 = ieee_six_cell_diff<double>(bit64, &u64);
  double d32 = ieee_six_cell_diff<float>(bit32, &u32);
  // ulp counts are integers in the report
  EXPECT_EQ(r.values.find("max_ulps_f64")->type(), json::kind::integer);
  EXPECT_EQ(static_cast<double>(int_value(r, "max_ulps_f64")), u64);
  EXPECT_EQ(static_cast<double>(int_value(r, "max_ulps_f32")), u32);
  EXPECT_EQ(value(r, "max_abs_diff_f64").to_double(), d64);
  EXPECT_EQ(value(r, "max_abs_diff_f32").to_double(), d32);
  EXPECT_EQ(r.values.find("bitwise_equal_f64")->as_bool(), bit64);
  // The verdict follows from the figures.
  bool exact = d64 == 0 && d32 == 0;
  EXPECT_EQ(r.result, exact ? verdict::holds : verdict::holds_qualified);
  if (!exact) {
    ASSERT_TRUE(r.qualification.has_value());
    EXPECT_NE(r.qualification->find("ulp"), std::string::npos);
  }
}

// One six-cell input for the claim, its bitwise study and its exhaustive proof
// the study's chapter-order ulps are the claim's, type by type.
TEST(OpeningClaims, SixCellsClaimAndBitwiseStudyShareTheirInput) {
  auto r = run_claim("perm.six-cells");
  int seen = 0;
  for (const auto& c : pv::proofs::bitwise_study(1, 1)) {
    if (c.reduction != "sequential") continue;
    ++seen;
    EXPECT_EQ(c.chapter_order_max_ulps, int_value(r, c.type == "float64" ? "max_ulps_f64" : "max_ulps_f32"))
        << c.type;
  }
  EXPECT_EQ(seen, 2);
}

/// The 'bit' row of a sentence under fixed projections, in plain MPFR.
std::vector<mp> verb_row(const std::vector<std::string>& words) {
  const std::vector<std::string> vocab = {"the", "dog", "bit", "man"};
  auto proj = [](std::size_t salt) {
    mp_rows W(4, std::vector<mp>(4));
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = 0; j < 4; ++j) W[i][j] = mp(fixed_entry(i, j, salt));
    return W;
  };
  auto Wq = proj(2), Wk = proj(3), Wv = proj(4);
  auto times = [](const mp_rows& X, const mp_rows& W) {
    mp_rows Y(X.size(), std::vector<mp>(W[0].size()));
    for (std::size_t i = 0; i < X.size(); ++i)
      for (std::size_t j = 0; j < W[0].size(); ++j)
        for (std::size_t k = 0; k < W.size(); ++k) Y[i][j] += X[i][k] * W[k][j];
    return Y;
  };
  mp_rows X;
  for (const auto& w : words) {
    std::size_t v = 0;
    while (vocab[v] != w) ++v;
    std::vector<mp> row;
    for (std::size_t j = 0; j < 4; ++j) row.push_back(mp(fixed_entry(v, j, 1)));
    X.push_back(row);
  }
  return mp_attention(times(X, Wq), times(X, Wk), times(X, Wv))[2];
}

TEST(OpeningClaims, WordOrderVerbVectorIsTheSame) {
  auto r = run_claim("perm.word-order");
  auto a = verb_row({"the", "dog", "bit", "the", "man"});
  auto b = verb_row({"the", "man", "bit", "the", "dog"});
  mp diff = 0;
  for (std::size_t c = 0; c < 4; ++c) diff = mmax(diff, mabs(a[c] - b[c]));
  EXPECT_TRUE(near_zero(diff, 1e-80));  // the independent route sees no difference either
  EXPECT_TRUE(near_zero(value(r, "max_abs_diff_hp"), 1e-70));
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(OpeningClaims, PictureRowsFlipOnlyMovesOutputs) {
  auto r = run_claim("perm.picture-rows");
  EXPECT_TRUE(near_zero(value(r, "max_abs_diff_hp"), 1e-70));
  EXPECT_EQ(r.result, verdict::holds);
}

}  // namespace
}  // namespace claims_opening_test
}  // namespace pv::claims::test
