// The collision horizon of carousel.d under the scalings of current models:
// the shared search on ladders whose first collision is known in closed form,
// and the study's figures by raw MPFR formulas (not through rope_scaling.h).
#include <numbers>

#include "claims/collision_search.h"
#include "claims/common.h"
#include "claims_test_util.h"

namespace pv::claims::test {
namespace claims_scaling_horizon_test {  // this file's names: a unity build compiles several test files as one
namespace {

const double deg = std::numbers::pi / 180;

TEST(CollisionSearch, OneSpeedCollidesAtItsPeriodAndLinearScalingMovesItByTheFactor) {
  EXPECT_EQ(search_collision({30 * deg}, 1 * deg, 1000).first_hit,
            12);  // 12 x 30 = 360
  EXPECT_EQ(search_collision({30 * deg / 4}, 1 * deg, 1000).first_hit, 48);
  // two speeds with periods 12 and 8 line up first at lcm(12, 8) = 24
  EXPECT_EQ(search_collision({30 * deg, 45 * deg}, 1 * deg, 1000).first_hit, 24);
  // none up to the limit: 0, and the closest approach is recorded
  auto r = search_collision({30 * deg, 45 * deg}, 1 * deg, 23);
  EXPECT_EQ(r.first_hit, 0);
  EXPECT_EQ(r.first_d, 8);   // the 45-degree pair's first turn: 8 x 45 = 360
  EXPECT_EQ(r.best_d, 23);   // 690 and 1035 degrees: 30 and 45 off; 8 .. 22 leave a pair 90 or more off
  EXPECT_NEAR(r.best, 45 * deg, 1e-12);
  // slow pairs do not "collide" at D = 1 merely because they have not turned yet
  // (both within 0.5 degree of a whole turn first at 3598: 359.8 and 719.6 degrees)
  EXPECT_EQ(search_collision({0.1 * deg, 0.2 * deg}, 0.5 * deg, 100000).first_hit, 3598);
}

/// The study, computed once (some seconds of searching). ctest runs each test
/// in a process of its own, so its checks are one test: two parts below.
const json& study() {
  static const json s = [] {
    for (const auto& p : proofs())
      if (p.claim_id == "carousel.d" && p.name == "horizon_under_model_scalings") {
        claim_result r;
        p.attach(claim_context{}, r);
        return *r.extra.find("horizon_under_model_scalings");
      }
    throw std::runtime_error("no horizon study attached to carousel.d");
  }();
  return s;
}

const json& row(const json& s, const std::string& spelling, const std::string& axis = "") {
  for (const auto& [key, r] : s.find("rows")->items())
    if (r.find("spelling")->as_string() == spelling &&
        (axis.empty() || r.find("axis")->as_string().rfind(axis, 0) == 0))
      return r;
  throw std::runtime_error("no row " + spelling);
}

mp period(const json& r) { return mp(r.find("slowest_period_positions")->as_string()); }

void slowest_periods_move_as_the_formulas_say() {
  const json& s = study();
  const mp two_pi = mp(2) * mpi();
  const mp chapter = two_pi * mpow(mp(10000), mp(126) / mp(128));
  EXPECT_TRUE(agrees(period(row(s, "adjacent:10000:128")), chapter));
  // linear interpolation divides every speed by 4
  EXPECT_TRUE(agrees(period(row(s, "adjacent:10000:128:linear(4)")), mp(4) * chapter));
  // NTK-aware: theta' = theta 4^(128/126), so the slowest pair is exactly
  // interpolated by 4
  EXPECT_TRUE(agrees(period(row(s, "adjacent:10000:128:ntk(4)")), mp(4) * chapter));
  // llama3: the slowest wavelength is above 8192/1, so it is divided by 8
  EXPECT_TRUE(agrees(period(row(s, "--rope-preset llama-3.1-8b")),
                     mp(8) * two_pi * mpow(mp(500000), mp(126) / mp(128))));
  // FLUX's image-number axis: theta^(-14/16) over its own 16 components
  EXPECT_TRUE(agrees(period(row(s, "--rope-preset flux.1", "image")),
                     two_pi * mpow(mp(10000), mp(14) / mp(16))));
  // Qwen2-VL's temporal section: pairs 0-15 of one ladder over 128, slowest
  // 1e6^(-30/128)
  EXPECT_TRUE(agrees(period(row(s, "--rope-preset qwen2-vl", "temporal")),
                     two_pi * mpow(mp(1000000), mp(30) / mp(128))));
}

void every_reported_collision_is_confirmed_in_mpfr() {
  const json& s = study();
  EXPECT_EQ(s.find("eps_deg")->as_integer(), 1);
  EXPECT_GE(s.find("rows")->size(), 15u);
  for (const auto& [key, r] : s.find("rows")->items()) {
    SCOPED_TRACE(r.find("configuration")->as_string());
    const mp closest(r.find("closest_approach_deg")->as_string());
    if (r.find("first_collision_distance")->is_null()) {
      EXPECT_GT(closest, mp(1.0 - 1e-6));  // else the search missed a collision
    } else {
      EXPECT_LE(mp(r.find("first_collision_worst_gap_deg")->as_string()), mp(1.0 + 1e-6));
      EXPECT_LE(closest, mp(1.0 + 1e-6));
      EXPECT_LE(r.find("closest_approach_distance")->as_integer(),
                s.find("search_limit")->as_integer());
    }
  }
}

TEST(ScalingHorizon, SlowestPeriodsMoveAsTheFormulasSayAndEveryCollisionIsConfirmedInMpfr) {
  slowest_periods_move_as_the_formulas_say();
  every_reported_collision_is_confirmed_in_mpfr();
}

}  // namespace
}  // namespace claims_scaling_horizon_test
}  // namespace pv::claims::test
