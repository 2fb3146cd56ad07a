// attention.convex_hull written once (laws/attention/convex_hull.h): an entry
// outside its column's range by more than B fails, a row of V = I must sum to
// 1 within sum_c B, and the visitor may stop.
#include "laws/attention/convex_hull.h"

#include <gtest/gtest.h>

#include <vector>

namespace pv::laws::convex_hull {
namespace laws_attention_convex_hull_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(ConvexHullLaw, EntriesStayInTheColumnRange) {
  matrix<double> V(3, 2);
  V(0, 0) = -1, V(1, 0) = 2, V(2, 0) = 0.5;  // column 0 in [-1, 2]
  V(0, 1) = 0, V(1, 1) = 1, V(2, 1) = 3;     // column 1 in [0, 3]
  matrix<hp> B(1, 2);
  for (auto& b : B.a) b = hp(0.125);
  matrix<double> out(1, 2);
  out(0, 0) = 2.1, out(0, 1) = -0.1;  // outside by 0.1 each: within B
  EXPECT_TRUE(compare_any_order(out, V, B, false, [](const entry&) { return true; }).within);
  out(0, 1) = -0.25;  // outside by 0.25 > B
  std::vector<hp> excess;
  const auto o = compare_any_order(out, V, B, false, [&](const entry& e) {
    excess.push_back(e.excess);
    EXPECT_FALSE(e.row_sum);
    return true;
  });
  EXPECT_FALSE(o.within);
  ASSERT_EQ(excess.size(), 2u);
  EXPECT_EQ(excess[1], hp(0.25));
}

TEST(ConvexHullLaw, WithTheIdentityEachRowSumsToOne) {
  const auto V = matrix<double>::identity(3);
  matrix<hp> B(1, 3);
  for (auto& b : B.a) b = hp(0.001);
  matrix<double> out(1, 3);
  out(0, 0) = 0.5, out(0, 1) = 0.25, out(0, 2) = 0.25;
  EXPECT_TRUE(compare_any_order(out, V, B, true, [](const entry&) { return true; }).within);
  out(0, 2) = 0.3;  // inside [0, 1], but the row sums to 1.05
  bool saw_sum = false;
  const auto o = compare_any_order(out, V, B, true, [&](const entry& e) {
    if (e.row_sum) {
      saw_sum = true;
      EXPECT_EQ(e.bound, hp(0.003));
    }
    return true;
  });
  EXPECT_FALSE(o.within);
  EXPECT_TRUE(saw_sum);
  // without the simplex check the same row passes
  EXPECT_TRUE(compare_any_order(out, V, B, false, [](const entry&) { return true; }).within);
  // the visitor stops the comparison
  EXPECT_EQ(compare_any_order(out, V, B, true, [](const entry&) { return false; }).entries, 1u);
}

}  // namespace
}  // namespace laws_attention_convex_hull_test
}  // namespace pv::laws::convex_hull
