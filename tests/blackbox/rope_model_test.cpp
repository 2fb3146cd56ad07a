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

// reference_layout is remembered per thread, by the configuration's bytes and
// the reference precision: the same pairs and speeds, bit for bit, as
// computed afresh, for configurations of every version (FLUX.1's axes,
// partial rotary, the scalings, frequency factors), and a change of the
// precision is not answered from the layouts of the old one.
TEST(RopeModel, RememberedReferenceLayoutEqualsTheComputedOne) {
  const unsigned bits = ref::precision_bits();
  std::vector<rope_cfg> configs = scaled_rope_configs();
  for (const char* spec : {"adjacent:10000:16,56,56", "halves:500000:128"}) configs.push_back(parse_rope_config(spec));
  for (unsigned b : {bits, 128u, bits}) {
    ref::set_precision_bits(b);
    for (const auto& rc : configs)
      for (int twice = 0; twice < 2; ++twice) {
        const auto L = reference_layout(rc.c), fresh = reference_layout_uncached(rc.c);
        ASSERT_EQ(L.pairs.size(), fresh.pairs.size()) << rc.spec;
        EXPECT_EQ(L.head_dim, fresh.head_dim);
        EXPECT_EQ(L.n_axes, fresh.n_axes);
        EXPECT_EQ(L.scale, fresh.scale) << rc.spec;
        for (std::size_t i = 0; i < L.pairs.size(); ++i) {
          EXPECT_EQ(L.pairs[i].a, fresh.pairs[i].a);
          EXPECT_EQ(L.pairs[i].b, fresh.pairs[i].b);
          EXPECT_EQ(L.pairs[i].axis, fresh.pairs[i].axis);
          EXPECT_EQ(L.pairs[i].speed, fresh.pairs[i].speed) << rc.spec << " pair " << i << " bits " << b;
          EXPECT_EQ(mpfr_get_prec(L.pairs[i].speed.backend().data()), mpfr_get_prec(fresh.pairs[i].speed.backend().data()))
              << rc.spec << " bits " << b;
        }
      }
  }
  ref::set_precision_bits(bits);
}

// rotation_tolerance computes in place, in variables made once per row; its
// value is the rule's expression evaluated with a temporary per operation,
// bit for bit (the same roundings in the same order), here on rows of three
// axes with a scale, under float32 and under a declared float16 storage.
TEST(RopeModel, RotationToleranceIsItsRuleBitForBit) {
  rng g(7);
  for (const char* accuracy : {"", "float16"}) {
    check_run cx;
    if (*accuracy) cx.accuracy = parse_accuracy(accuracy);
    const rope_units u = rope_law_units<float>(cx);
    kernel_speeds ks;
    const std::size_t d = 6, axes = 3;
    ks.w.assign(axes, std::vector<double>(d));
    for (auto& row : ks.w)
      for (auto& w : row) w = g.real(0, 3);
    ks.partner = {1, 0, 3, 2, 5, 4};
    ks.roundings = {1, 1, 4, 4, 9, 9};
    ks.scale = hp(1.25);
    const float x[d] = {0.5f, -1.75f, 3e-5f, 2.0f, -0.0f, 7.5f};
    const double pos[axes] = {3, 1048577, 17};
    const auto t = rotation_tolerance<float>(ks, pos, x, u);
    const hp e_rot = rotation_rounding(u) + hp(4 * u.op), floor = rotation_floor(u);
    for (std::size_t c = 0; c < d; ++c) {
      hp ang = 0;
      for (std::size_t a = 0; a < axes; ++a) ang += abs(convert<hp>(pos[a])) * (convert<hp>(ks.w[a][c]) + 8 * u.op);
      const hp r = abs(convert<hp>(x[c])) + abs(convert<hp>(x[ks.partner[c]]));
      const hp want = ks.scale * r * (angle_position_error(ks.roundings[c], u.angle) * ang + e_rot) + floor;
      EXPECT_EQ(t[c], want) << accuracy << " component " << c;
    }
  }
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
