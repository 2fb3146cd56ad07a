// Problem 4 claims: integer degrees by other formulas (gcd for the period),
// and the slow-pair figures by raw MPFR.
#include "claims/common.h"
#include "claims_test_util.h"

#include <numeric>

namespace pv::claims::test {
namespace {

TEST(CarouselClaims, PartA) {
  auto r = run_claim("carousel.a");
  EXPECT_EQ(int_value(r, "a_deg"), 130);
  EXPECT_EQ(int_value(r, "b_deg"), 190);
  EXPECT_EQ(int_value(r, "gap_deg"), 60);
  EXPECT_TRUE(agrees(value(r, "a_deg_hp"), mp(130)));
  EXPECT_TRUE(agrees(value(r, "b_deg_hp"), mp(190)));
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(CarouselClaims, PartB) {
  auto r = run_claim("carousel.b");
  EXPECT_EQ(int_value(r, "t2_deg"), 60);
  EXPECT_EQ(int_value(r, "t5_deg"), 150);
  EXPECT_EQ(int_value(r, "t7_deg"), 210);
  EXPECT_EQ(int_value(r, "t10_deg"), 300);
  EXPECT_EQ(int_value(r, "gap_deg"), 90);
  EXPECT_TRUE(agrees(value(r, "gap_deg_hp"), mp(90)));
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(CarouselClaims, PartC) {
  auto r = run_claim("carousel.c");
  EXPECT_EQ(int_value(r, "angle_diff_15_deg"), 450 - 360);
  EXPECT_EQ(int_value(r, "angle_15_unwrapped_deg"), 450);
  EXPECT_EQ(int_value(r, "period"), 360 / std::gcd(30, 360));
  EXPECT_TRUE(near_zero(value(r, "dot_distance_15"), 1e-70));  // cos(450 degrees)
  EXPECT_TRUE(near_zero(value(r, "dot_distance_3"), 1e-70));   // cos(90 degrees)
  EXPECT_TRUE(near_zero(value(r, "dot_diff_3_vs_15"), 1e-70));
  EXPECT_EQ(r.result, verdict::holds);
}

/// Distance of D w to the nearest whole turn, in degrees, worst over the 64
/// pairs of theta 10000, d = 128.
mp worst_gap_deg(std::int64_t D, int pairs_used = 64) {
  const mp two_pi = mp(2) * mpi();
  mp worst = 0;
  for (int i = 0; i < pairs_used; ++i) {
    mp a = mp(static_cast<double>(D)) * mpow(mp(10000), mp(-2.0 * i) / mp(128));
    mp turns = mfloor(a / two_pi + mp(0.5));
    worst = mmax(worst, mabs(a - turns * two_pi));
  }
  return worst * mp(180) / mpi();
}

TEST(CarouselClaims, PartD) {
  auto r = run_claim("carousel.d");
  EXPECT_TRUE(agrees(value(r, "slowest_period_positions"),
                     mp(2) * mpi() * mpow(mp(10000), mp(126) / mp(128))));
  EXPECT_TRUE(r.values.find("smallest_collision_distance")->is_null());
  std::int64_t D = int_value(r, "closest_approach_distance");
  EXPECT_TRUE(agrees(value(r, "closest_approach_deg"), worst_gap_deg(D)));
  // The fastest pair alone: first distance within 1 degree of a whole turn.
  std::int64_t first = 0;
  for (std::int64_t k = 1; k < 2000 && first == 0; ++k)
    if (worst_gap_deg(k, 1) <= mp(1)) first = k;
  EXPECT_EQ(int_value(r, "fastest_pair_alone_collision_distance"), first);
  EXPECT_EQ(r.result, verdict::holds_qualified);
}

}  // namespace
}  // namespace pv::claims::test
