// attention.shapes written once (laws/attention/shapes.h): the worst entry in
// units of B + b_ref, infinite where the tolerance is zero and the error is
// not, and the exact figures at that entry.
#include "laws/attention/shapes.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pv::laws::attention_shapes {
namespace laws_attention_shapes_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(AttentionShapesLaw, FindsTheWorstEntryAndJudgesItExactly) {
  const std::vector<float> out = {1.0f, 2.5f, 3.0f};
  const std::vector<double> hi = {1.0, 2.0, 3.0}, lo = {0, 0, 0}, rb = {0.1, 0.1, 0.1}, B = {0.4, 0.4, 0.4};
  auto o = compare(out, hi, lo, rb, B);
  ASSERT_TRUE(o.found);
  EXPECT_EQ(o.entry, 1u);
  EXPECT_DOUBLE_EQ(o.ratio, 1.0);
  EXPECT_EQ(o.diff, hp(0.5));
  EXPECT_EQ(o.bound, convert<hp>(0.4) + convert<hp>(0.1));
  // 0.5 against 0.5 in binary64 is 0.1 + 0.4 rounded; judged exactly in hp
  EXPECT_EQ(o.within, o.diff <= o.bound);
  const std::vector<double> tight = {0.3, 0.3, 0.3};
  EXPECT_FALSE(compare(out, hi, lo, rb, tight).within);
}

TEST(AttentionShapesLaw, AZeroToleranceWithAnErrorIsInfinite) {
  const std::vector<double> out = {1.0, 2.0};
  const std::vector<double> hi = {1.0, 1.0}, lo = {0, 0}, zero = {0, 0};
  auto o = compare(out, hi, lo, zero, zero);
  EXPECT_TRUE(std::isinf(o.ratio));
  EXPECT_EQ(o.entry, 1u);
  EXPECT_FALSE(o.within);
  EXPECT_FALSE(compare(std::vector<double>{}, hi, lo, zero, zero).found);
  EXPECT_NE(statement("models").find("FLUX.1 head"), std::string::npos);
  EXPECT_EQ(statement("quick").find("FLUX.1 head"), std::string::npos);
}

}  // namespace
}  // namespace laws_attention_shapes_test
}  // namespace pv::laws::attention_shapes
