// Problem 4 claims: integer degrees by other formulas (gcd for the period),
// and the slow-pair figures by raw MPFR.
#include "claims/common.h"
#include "claims_test_util.h"

#include <cmath>
#include <numbers>
#include <numeric>

namespace pv::claims::test {
namespace claims_carousel_test {  // this file's names: a unity build compiles several test files as one
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
  // Between one speed and 64 (index.html draws these rows): k speeds
  // 10000^(-i/k), each first collision found again by a plain scan from D = 1
  // with fmod (the search under test starts at the fastest pair's first turn
  // and rounds with an fma), and confirmed in MPFR at the distance found.
  const json* study = r.extra.find("first_collision_by_speed_count");
  ASSERT_NE(study, nullptr);
  EXPECT_EQ(study->find("search_limit")->as_integer(), 10000000);
  const json& rows = *study->find("rows");
  ASSERT_EQ(rows.size(), 4u);
  const double eps = std::numbers::pi / 180, two_pi = 2 * std::numbers::pi;
  for (int k = 1; k <= 4; ++k) {
    const json& row = rows.items()[std::size_t(k - 1)].second;
    EXPECT_EQ(row.find("speeds")->as_integer(), k);
    std::vector<double> w;
    for (int i = 0; i < k; ++i) w.push_back(std::pow(10000.0, -double(i) / k));
    std::int64_t hit = 0;
    for (std::int64_t D = 1; D <= 1000000 && hit == 0; ++D) {
      std::size_t i = 0;
      for (; i < w.size(); ++i) {
        const double f = std::fmod(double(D) * w[i], two_pi);
        if (std::min(f, two_pi - f) > eps) break;
      }
      if (i == w.size()) hit = D;
    }
    ASSERT_GT(hit, 0) << k << " speeds: none up to 10^6";
    EXPECT_EQ(row.find("first_collision")->as_integer(), hit) << k << " speeds";
    mp worst = 0;
    for (int i = 0; i < k; ++i) {
      mp a = mp(static_cast<double>(hit)) * mpow(mp(10000), mp(-double(i)) / mp(double(k)));
      worst = mmax(worst, mabs(a - mfloor(a / (mp(2) * mpi()) + mp(0.5)) * mp(2) * mpi()));
    }
    EXPECT_LE(worst * mp(180) / mpi(), mp(1)) << k << " speeds";
  }
}

}  // namespace
}  // namespace claims_carousel_test
}  // namespace pv::claims::test
