// RoPE shift invariance written once (src/laws/shift_invariance.h).
#include "laws/rope/shift_invariance.h"

#include <gtest/gtest.h>

namespace pv::laws::shift_invariance {
namespace laws_rope_shift_invariance_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(ShiftLaw, BodyAddsTheTwoBounds) {
  const auto o = compare(1.0, 1.0 + 0x1p-40, hp(0x1p-41), hp(0x1p-41));
  EXPECT_TRUE(o.within);
  EXPECT_EQ(o.bound, hp(0x1p-40));
  EXPECT_FALSE(compare(1.0, 1.0 + 0x1p-40, hp(0x1p-42), hp(0x1p-42)).within);
}

TEST(ShiftLaw, PositionsAreShiftedTogether) {
  const auto p = positions(3, 11, 1000);
  EXPECT_EQ(p[0], 3);
  EXPECT_EQ(p[1], 11);
  EXPECT_EQ(p[2], 1003);
  EXPECT_EQ(p[3], 1011);
}

TEST(ShiftLaw, RopeDotHoldsForFloatAndNotForAWrongShift) {
  const auto L = rope_ladder<float>(8, 10000.0f, pairing::adjacent);
  const std::vector<float> q = {0.5f, -1, 0.25f, 2, 1, -0.75f, 0.125f, 1.5f};
  const std::vector<float> k = {1, 0.5f, -2, 0.75f, -0.25f, 1, 1.25f, -1};
  const auto o = evaluate_rope(L, q.data(), k.data(), 17, 5, 4000);
  EXPECT_TRUE(o.within) << ref::to_decimal(o.diff, 10) << " > " << ref::to_decimal(o.bound, 10);
  EXPECT_GT(o.bound, 0);
  // the same body rejects dot products of different offsets m - n
  const double m2 = 18, n2 = 5;
  const float other = rope_dot(L, q.data(), &m2, k.data(), &n2);
  EXPECT_FALSE(compare(o.base, other, o.bound_base, o.bound_shifted).within);
}

}  // namespace
}  // namespace laws_rope_shift_invariance_test
}  // namespace pv::laws::shift_invariance
