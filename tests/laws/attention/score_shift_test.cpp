// attention.score_shift written once (laws/attention/score_shift.h): the case
// appends the shift column to q and a column of ones to k, and attention
// computed with the max-subtraction meets the law at shifts where exp overflows.
#include "laws/attention/score_shift.h"
#include "numerics/attention.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace pv::laws::score_shift {
namespace laws_attention_score_shift_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(ScoreShiftLaw, TheCaseAppendsTheShiftAndOnes) {
  matrix<float> q(2, 3), k(4, 3);
  for (std::size_t i = 0; i < q.a.size(); ++i) q.a[i] = float(i) + 1;
  for (std::size_t i = 0; i < k.a.size(); ++i) k.a[i] = float(i) - 5;
  const auto s = shift_scores(q, k, {100.5, -7});
  ASSERT_EQ(s.q1.cols, 4u);
  EXPECT_EQ(s.q1(0, 3), 100.5f);
  EXPECT_EQ(s.q1(1, 3), -7.0f);
  EXPECT_EQ(s.q0(1, 3), 0.0f);
  EXPECT_EQ(s.q0(1, 2), q(1, 2));
  for (std::size_t r = 0; r < k.rows; ++r) EXPECT_EQ(s.k1(r, 3), 1.0f);
  EXPECT_EQ(s.k1(2, 1), k(2, 1));
}

TEST(ScoreShiftLaw, MaxSubtractedAttentionMeetsItWhereExpOverflows) {
  matrix<float> q(3, 2), k(5, 2), v(5, 2);
  for (std::size_t i = 0; i < q.a.size(); ++i) q.a[i] = float(std::sin(0.8 * double(i)));
  for (std::size_t i = 0; i < k.a.size(); ++i) k.a[i] = float(std::cos(1.1 * double(i)));
  for (std::size_t i = 0; i < v.a.size(); ++i) v.a[i] = float(i) - 4;
  const auto s = shift_scores(q, k, {2000 * std::sqrt(3.0), 1500, 900});
  const hp u = convert<hp>(unit_roundoff<float>()), mu = convert<hp>(std::numeric_limits<float>::min());
  const auto B1 = attention_bound::any_order(s.q1, s.k1, v, u, mu);
  const auto B0 = attention_bound::any_order(s.q0, s.k1, v, u, mu);
  const auto o1 = attention(s.q1, s.k1, v), o0 = attention(s.q0, s.k1, v);
  std::size_t seen = 0;
  const auto o = compare_any_order(o1, o0, B1, B0, [&](const entry<float>& e) {
    ++seen;
    EXPECT_EQ(e.bound, B1(e.row, e.col) + B0(e.row, e.col));
    return true;
  });
  EXPECT_TRUE(o.within);
  EXPECT_EQ(seen, 6u);
  // without the max-subtraction exp overflows: a different output fails
  auto wrong = o1;
  wrong(1, 0) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(compare_any_order(wrong, o0, B1, B0, [](const entry<float>&) { return true; }).within);
}

}  // namespace
}  // namespace laws_attention_score_shift_test
}  // namespace pv::laws::score_shift
