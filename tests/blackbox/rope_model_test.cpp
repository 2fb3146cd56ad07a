// The RoPE tolerance model (blackbox/rope_model.h) on hand-made rows: the
// floor of a storage format's subnormals, and the angle ladder's
// position-dependent roundings in the rotation laws' tolerance.
#include "blackbox/check_run.h"
#include "blackbox/rope_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace pv;
using namespace pv::blackbox;

/// float -> float16 -> float (round to nearest even, subnormals included).
float to_f16(float x) { return float(static_cast<_Float16>(x)); }

// A float16 run (16-bit wire, or a declared float16 class) rounds the input
// before the kernel sees it. Below float16's normal range (2^-14) that
// rounding is absolute (up to 2^-25), not relative: a row whose pair is
// two float16 subnormals, returned unchanged at position 0 (the exact
// identity, as sent), was over the identity's tolerance (ratio 24 here;
// rope.identity_at_zero[float16] failed at 1.26 on a real kernel).
TEST(RopeModel, Float16SubnormalsWithinTheIdentitysTolerance) {
  check_run cx;
  cx.accuracy = parse_accuracy("float16");
  const rope_units u = rope_law_units<float>(cx);
  ASSERT_TRUE(u.stored);
  kernel_speeds ks;
  ks.w = {{0.0, 0.0}};
  ks.partner = {1, 0};
  ks.roundings = {1, 1};
  const float x[2] = {std::ldexp(2.4f, -24), std::ldexp(1.6f, -24)};  // float16 subnormals
  const double pos[1] = {0};
  const auto t = rotation_tolerance<float>(ks, pos, x, u);
  rope_units relative_only = u;  // the bound before the floor: relative terms only
  relative_only.eta = 0;
  const auto t0 = rotation_tolerance<float>(ks, pos, x, relative_only);
  for (int c = 0; c < 2; ++c) {
    const hp err = abs(convert<hp>(to_f16(x[c])) - convert<hp>(x[c]));
    EXPECT_GT(err, 10 * t0[c]) << c;  // the finding, reproduced
    EXPECT_GT(err, hp(0)) << c;
    EXPECT_LE(err, t[c]) << "component " << c << ": error " << convert<double>(err) << ", tolerance "
                         << convert<double>(t[c]);
  }
}

// The floor is the storage format's: none without one, 2^-24's half (and a
// little more, for the rotation) under float16.
TEST(RopeModel, FloorOnlyUnderAStorageFormat) {
  check_run cx;
  EXPECT_EQ(rotation_floor(rope_law_units<float>(cx)), hp(0));
  cx.accuracy = parse_accuracy("float16");
  const hp f = rotation_floor(rope_law_units<float>(cx));
  EXPECT_GT(f, hp(std::ldexp(1.0, -25) * 2.4));
  EXPECT_LT(f, hp(std::ldexp(1.0, -25) * 2.5));
}

// An angle ladder theta_k = theta_{k-1} r from theta_0 = m: pair k's angle
// carries k position-dependent roundings, so the rotation laws allow
// eps_m(k) = (1 + u)^max(1, k) - 1 (over 1 - eps_m) per unit of |m| w'.
TEST(RopeModel, RotationToleranceCountsTheAngleLadder) {
  pv_rope_config c{};
  c.head_dim = 8;
  c.n_axes = 1;
  c.axes_dim[0] = 8;
  c.theta = 10000;
  c.pairing = PV_PAIRS_ADJACENT;
  kernel_speeds ks;
  ladder_roundings(reference_layout(c), c, ks);
  ASSERT_EQ(ks.roundings.size(), 8u);
  EXPECT_EQ(ks.roundings[0], 1u);  // pair 0: one product m w (or none: theta_0 = m)
  EXPECT_EQ(ks.roundings[1], 1u);
  EXPECT_EQ(ks.roundings[2], 1u);  // pair 1
  EXPECT_EQ(ks.roundings[6], 3u);  // pair 3
  const hp u = convert<hp>(0x1p-24);
  EXPECT_GT(angle_position_error(3, u), 3 * u);
  EXPECT_LT(angle_position_error(3, u), hp(3.0001) * u);
  c.scaling.kind = PV_SCALE_YARN;  // the factor and the blend on the angle
  EXPECT_EQ(angle_roundings(c, 0), 4u);
  c.scaling.kind = PV_SCALE_NTK;  // the base only
  EXPECT_EQ(angle_roundings(c, 5), 5u);
}

}  // namespace
