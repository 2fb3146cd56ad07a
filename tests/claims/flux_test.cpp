// FLUX.1 claims: the layout's numbers, exact zeros, and the per-axis parts of
// the rotated dot product by explicit rotation in raw MPFR.
#include "claims/common.h"
#include "claims_test_util.h"

namespace pv::claims::test {
namespace claims_flux_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(FluxClaims, AxesAreSixteenFiftySixFiftySix) {
  auto r = run_claim("flux.axes");
  EXPECT_EQ(int_array(r, "axes_dim"), (std::vector<std::int64_t>{16, 56, 56}));
  EXPECT_EQ(int_value(r, "theta"), 10000);
  EXPECT_EQ(int_value(r, "head_dim"), 128);
  EXPECT_TRUE(near_zero(value(r, "theta_max_rel_deviation"), 1e-70));
  EXPECT_EQ(int_array(r, "block_start"), (std::vector<std::int64_t>{0, 16, 72}));
  // posverify's layout is measured; FLUX.1's own code is not run: qualified.
  EXPECT_EQ(r.result, verdict::holds_qualified);
  ASSERT_TRUE(r.qualification.has_value());
  EXPECT_NE(r.qualification->find("[16, 56, 56] components starting at [0, 16, 72]"), std::string::npos)
      << *r.qualification;
}

TEST(FluxClaims, SameRowAndColumnGapsAreZero) {
  auto r = run_claim("flux.same-row-col");
  EXPECT_EQ(value_text(r, "max_row_group_angle_diff_same_row"), "0");
  EXPECT_EQ(value_text(r, "max_col_group_angle_diff_same_col"), "0");
  // Neighbouring rows: the fastest row pair (speed 10000^0 = 1) differs by 1 rad.
  EXPECT_TRUE(agrees(value(r, "min_row_group_angle_diff_other_rows"), mp(1)));
  EXPECT_TRUE(agrees(value(r, "min_col_group_angle_diff_other_cols"), mp(1)));
  EXPECT_EQ(r.result, verdict::holds);
}

/// The part of <R(0) q, R(delta) k> carried by one axis group, by rotating k
/// pair by pair (q at the origin is not rotated).
mp group_part(std::size_t offset, std::size_t dim, double delta) {
  mp s = 0;
  for (std::size_t p = 0; p < dim / 2; ++p) {
    std::size_t a = offset + 2 * p, b = a + 1;
    mp w = mpow(mp(10000), -mp(static_cast<double>(2 * p)) / mp(static_cast<double>(dim)));
    mp c = mcos(mp(delta) * w), sn = msin(mp(delta) * w);
    mp qa = fixed_entry(0, a, 8), qb = fixed_entry(0, b, 8);
    mp ka = fixed_entry(0, a, 9), kb = fixed_entry(0, b, 9);
    s += qa * (ka * c - kb * sn) + qb * (ka * sn + kb * c);
  }
  return s;
}

TEST(FluxClaims, SeparateOffsetsRemainInTheDot) {
  auto r = run_claim("flux.separate-offsets");
  EXPECT_TRUE(near_zero(value(r, "max_abs_diff_hp"), 1e-60));
  EXPECT_TRUE(near_zero(value(r, "decomposition_residual_hp"), 1e-60));
  mp row = 0, col = 0;
  for (double dl = 1; dl <= 5; ++dl) {
    row = mmax(row, mabs(group_part(16, 56, dl) - group_part(16, 56, 0)));
    col = mmax(col, mabs(group_part(72, 56, dl) - group_part(72, 56, 0)));
  }
  EXPECT_TRUE(agrees(value(r, "row_part_variation"), row));
  EXPECT_TRUE(agrees(value(r, "col_part_variation"), col));
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(FluxClaims, TextTokensAreNotRotated) {
  auto r = run_claim("flux.text-identity");
  EXPECT_EQ(value_text(r, "max_abs_diff_hp"), "0");
  EXPECT_EQ(value_text(r, "max_abs_diff_f64"), "0");
  EXPECT_EQ(r.result, verdict::holds);
}

}  // namespace
}  // namespace claims_flux_test
}  // namespace pv::claims::test
