// History claims against closed forms in raw MPFR.
#include "claims/common.h"
#include "claims_test_util.h"

namespace pv::claims::test {
namespace claims_history_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(HistoryClaims, WavelengthsAreTwoPiTimesPowersOfTenThousand) {
  auto r = run_claim("sinusoid.wavelengths");
  const mp two_pi = mp(2) * mpi();
  // lambda_i = 2 pi 10000^(i/256), i = 0 .. 255
  EXPECT_TRUE(agrees(value(r, "wavelength_first"), two_pi));
  EXPECT_TRUE(agrees(value(r, "wavelength_last"), two_pi * mpow(mp(10000), mp(255) / mp(256))));
  EXPECT_TRUE(agrees(value(r, "ratio"), mpow(mp(10000), mp(1) / mp(256))));
  EXPECT_TRUE(agrees(value(r, "limit"), mp(10000) * two_pi));
  EXPECT_TRUE(agrees(value(r, "last_over_limit"), mpow(mp(10000), mp(-1) / mp(256))));
  EXPECT_TRUE(agrees(value(r, "next_after_last_over_limit"), mp(1)));
  EXPECT_TRUE(near_zero(value(r, "ratio_max_rel_deviation"), 1e-70));
  // The last wavelength is short of the limit, so the verdict carries that.
  EXPECT_EQ(r.result, verdict::holds_qualified);
}

TEST(HistoryClaims, TimestepEmbeddingIsThePermutedSinusoid) {
  auto r = run_claim("sinusoid.timestep-embedding");
  // Independently: with half = d/2 the frequencies exp(-ln(10000) i/half)
  // and 10000^(-2i/d) are equal, so the permuted layouts agree exactly.
  const int d = 320, half = d / 2;
  mp worst = 0;
  for (int i = 0; i < half; i += 37) {
    mp f1 = mexp(-mlog(mp(10000)) * mp(i) / mp(half));
    mp f2 = mpow(mp(10000), -mp(2 * i) / mp(d));
    worst = mmax(worst, mabs(mcos(mp(999) * f1) - mcos(mp(999) * f2)));
  }
  EXPECT_TRUE(near_zero(worst, 1e-80));
  EXPECT_TRUE(near_zero(value(r, "max_abs_diff_after_permutation"), 1e-60));
  EXPECT_EQ(int_value(r, "half"), half);
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(HistoryClaims, LinearShiftResidualIsRounding) {
  auto r = run_claim("sinusoid.linear-shift");
  // sin(x + a) = sin x cos a + cos x sin a holds identically: the true residual is 0.
  mp x = mp(1048576) * mpow(mp(10000), mp(-2) / mp(16)), a = mp(65536) * mpow(mp(10000), mp(-2) / mp(16));
  EXPECT_TRUE(near_zero(msin(x + a) - (msin(x) * mcos(a) + mcos(x) * msin(a)), 1e-85));
  EXPECT_TRUE(near_zero(value(r, "max_residual_hp"), 1e-60));
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(HistoryClaims, LearnedSimilarIsNotCheckable) {
  auto r = run_claim("sinusoid.learned-similar");
  EXPECT_EQ(r.result, verdict::not_checkable);
  ASSERT_TRUE(r.qualification.has_value());
  EXPECT_NE(r.qualification->find("empirical"), std::string::npos);
}

TEST(HistoryClaims, CrossTermsAgreeWithABilinearForm) {
  auto r = run_claim("additive.cross-terms");
  // Independent route: u (Wq Wk^T) v^T as one bilinear form per term.
  const std::size_t d = 8;
  std::vector<std::vector<mp>> G(d, std::vector<mp>(d));
  for (std::size_t a = 0; a < d; ++a)
    for (std::size_t b = 0; b < d; ++b)
      for (std::size_t c = 0; c < d; ++c) G[a][b] += mp(fixed_entry(a, c, 6)) * mp(fixed_entry(b, c, 7));
  auto form = [&](const std::vector<mp>& u, const std::vector<mp>& v) {
    mp s = 0;
    for (std::size_t a = 0; a < d; ++a)
      for (std::size_t b = 0; b < d; ++b) s += u[a] * G[a][b] * v[b];
    return s;
  };
  std::vector<mp> xm, xn, pm, pn;
  for (std::size_t j = 0; j < d; ++j) {
    xm.push_back(mp(fixed_entry(0, j, 5)));
    xn.push_back(mp(fixed_entry(1, j, 5)));
    mp w = mpow(mp(10000), -mp(static_cast<double>(2 * (j / 2))) / mp(d));
    pm.push_back(j % 2 ? mcos(mp(3) * w) : msin(mp(3) * w));
    pn.push_back(j % 2 ? mcos(mp(11) * w) : msin(mp(11) * w));
  }
  EXPECT_TRUE(agrees(value(r, "content_content"), form(xm, xn)));
  EXPECT_TRUE(agrees(value(r, "content_position"), form(xm, pn)));
  EXPECT_TRUE(agrees(value(r, "position_content"), form(pm, xn)));
  EXPECT_TRUE(agrees(value(r, "position_position"), form(pm, pn)));
  EXPECT_TRUE(near_zero(value(r, "identity_residual_hp"), 1e-60));
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(HistoryClaims, RopeRelativeDependsOnTheDifferenceOnly) {
  auto r = run_claim("rope.relative");
  EXPECT_TRUE(near_zero(value(r, "max_abs_diff_hp"), 1e-60));
  EXPECT_EQ(r.result, verdict::holds);
}

}  // namespace
}  // namespace claims_history_test
}  // namespace pv::claims::test
