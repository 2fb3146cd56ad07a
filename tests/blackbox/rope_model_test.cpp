// The RoPE tolerance model (blackbox/rope_model.h) on hand-made rows: the
// floor of a storage format's subnormals, and the angle ladder's
// position-dependent roundings in the rotation laws' tolerance.
#include "blackbox/check_run.h"
#include "blackbox/rope_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace blackbox_rope_model_test {  // this file's names: a unity build compiles several test files as one

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

// speed_error remembers its values per thread (the laws ask for the same few
// once per pair of every row): each remembered value is the one computed
// afresh, for every dtype's u and a declared class's, and a change of the
// reference precision is not answered from values of the old one.
TEST(RopeModel, RememberedSpeedErrorEqualsTheComputedOne) {
  const unsigned bits = ref::precision_bits();
  for (unsigned b : {bits, 128u, 192u}) {
    ref::set_precision_bits(b);
    for (double theta : {10000.0, 500000.0, 1e6})
      for (std::size_t dim : {16u, 56u, 128u})
        for (const hp& u : {hp(std::ldexp(1.0, -24)), hp(std::ldexp(1.0, -53)), hp(std::ldexp(1.0, -11)),
                            hp(std::ldexp(1.0, -8))})
          for (std::size_t k = 0; k < dim / 2; k += 7) {
            const hp fresh = speed_error_uncached(theta, k, dim, u);
            EXPECT_EQ(speed_error(theta, k, dim, u), fresh) << theta << " " << dim << " " << k << " bits " << b;
            EXPECT_EQ(speed_error(theta, k, dim, u), fresh) << "remembered: " << theta << " " << dim << " " << k;
          }
    // the same u as a double, another as an hp: not confused
    const hp u1 = hp(std::ldexp(1.0, -24)), u2 = u1 * (1 + hp(std::ldexp(1.0, -100)));
    ASSERT_NE(u1, u2);
    EXPECT_EQ(speed_error(10000.0, 5, 64, u1), speed_error_uncached(10000.0, 5, 64, u1));
    EXPECT_EQ(speed_error(10000.0, 5, 64, u2), speed_error_uncached(10000.0, 5, 64, u2));
  }
  ref::set_precision_bits(bits);
}

// angle_position_error is remembered too: the same value as computed afresh.
TEST(RopeModel, RememberedAnglePositionErrorEqualsTheComputedOne) {
  for (const hp& u : {hp(std::ldexp(1.0, -24)), hp(std::ldexp(1.0, -8)), hp(std::ldexp(1.0, -53))})
    for (std::size_t n : {1u, 2u, 17u, 63u}) {
      const hp e = pow(1 + u, hp(double(n))) - 1, want = e / (1 - e);
      EXPECT_EQ(angle_position_error(n, u), want) << n;
      EXPECT_EQ(angle_position_error(n, u), want) << "remembered: " << n;
    }
}

}  // namespace blackbox_rope_model_test
