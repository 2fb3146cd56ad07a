// Worked-example claims against closed forms: cos of the angle difference
// for RoPE, and (1 + sin m)(1 + sin n) + cos m cos n = 1 + sin m + sin n +
// cos(n - m) for the additive sinusoid.
#include "claims/common.h"
#include "claims_test_util.h"

namespace pv::claims::test {
namespace claims_worked_example_test {  // this file's names: a unity build compiles several test files as one
namespace {

mp additive_closed(double m, double n) {
  return mp(1) + msin(mp(m)) + msin(mp(n)) + mcos(mp(n - m));
}

TEST(WorkedExampleClaims, Rope30DegreeDots) {
  auto r = run_claim("rope.example-30deg");
  EXPECT_TRUE(agrees(value(r, "dot_3_4"), msqrt(mp(3)) / mp(2)));  // cos(pi/6)
  EXPECT_TRUE(near_zero(value(r, "dot_2_5"), 1e-70));              // cos(pi/2)
  EXPECT_TRUE(near_zero(value(r, "dot_7_10"), 1e-70));
  EXPECT_EQ(r.printed.find("dot_3_4")->as_string(), "0.866");
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(WorkedExampleClaims, AdditiveDotsMatchTheClosedForm) {
  auto r = run_claim("additive.example");
  EXPECT_TRUE(agrees(value(r, "dot_2_5"), additive_closed(2, 5)));
  EXPECT_TRUE(agrees(value(r, "dot_7_10"), additive_closed(7, 10)));
  // The printed digits, checked here with a separate rounding (printf of a double).
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", additive_closed(2, 5).to_double());
  EXPECT_STREQ(buf, "-0.040");
  std::snprintf(buf, sizeof buf, "%.3f", additive_closed(7, 10).to_double());
  EXPECT_STREQ(buf, "0.123");
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(WorkedExampleClaims, DistanceOnlySpreads) {
  auto r = run_claim("rope.distance-only");
  mp spread = 0;
  for (double dist : {1.0, 2.0, 3.0, 5.0}) {
    mp lo = 100, hi = -100;
    for (int m = 0; m <= 20; ++m) {
      mp v = additive_closed(m, m + dist);
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    spread = mmax(spread, hi - lo);
  }
  EXPECT_TRUE(agrees(value(r, "additive_max_spread"), spread));
  EXPECT_TRUE(near_zero(value(r, "rope_max_spread"), 1e-70));
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(WorkedExampleClaims, MultiFrequencyWavelengths) {
  auto r = run_claim("rope.multi-frequency");
  const mp two_pi = mp(2) * mpi();
  EXPECT_TRUE(agrees(value(r, "fastest_wavelength"), two_pi));
  // slowest pair i = 63 of d = 128: 2 pi 10000^(126/128)
  mp slowest = two_pi * mpow(mp(10000), mp(63) / mp(64));
  EXPECT_TRUE(agrees(value(r, "slowest_wavelength"), slowest));
  EXPECT_TRUE(agrees(value(r, "fastest_neighbour_angle_deg"), mp(180) / mpi()));
  EXPECT_TRUE(agrees(value(r, "slowest_neighbour_angle_deg"),
                     mp(180) / mpi() / mpow(mp(10000), mp(63) / mp(64))));
  EXPECT_EQ(int_value(r, "slowest_unaliased_distance"),
            static_cast<std::int64_t>(mfloor(slowest / mp(2)).to_double()));
  EXPECT_EQ(r.result, verdict::holds);
}

}  // namespace
}  // namespace claims_worked_example_test
}  // namespace pv::claims::test
