// attention.key_value_permutation written once (laws/attention/key_value_permutation.h):
// output row r against output row r, within 2 B(r, c); pv::attention meets it.
#include "laws/attention/key_value_permutation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace pv::laws::key_value_permutation {
namespace laws_attention_key_value_permutation_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(KeyValuePermutationLaw, ComparesRowWithRowWithinTwiceTheBound) {
  matrix<double> A(2, 2);
  for (std::size_t i = 0; i < A.a.size(); ++i) A.a[i] = double(i) + 0.5;
  matrix<hp> B(2, 2);
  for (auto& b : B.a) b = hp(0.01);
  auto A_P = A;
  A_P(1, 0) += 0.015;  // beyond B, within 2 B
  auto o = compare_any_order(A, A_P, B);
  EXPECT_TRUE(o.within);
  EXPECT_EQ(o.entries, 4u);
  A_P(1, 0) += 0.01;  // beyond 2 B
  std::size_t seen_row = 9;
  o = compare_any_order(A, A_P, B, [&](const entry<double>& e) {
    if (!(e.diff <= e.bound)) seen_row = e.row;
    EXPECT_EQ(e.source, e.row);  // the identity: nothing moves
    return true;
  });
  EXPECT_FALSE(o.within);
  EXPECT_EQ(seen_row, 1u);
  EXPECT_EQ(any_order_tolerance(B, 1, 0), hp(0.02));
}

TEST(KeyValuePermutationLaw, FloatAttentionMeetsIt) {
  matrix<float> q(3, 4), k(5, 4), v(5, 2);
  for (std::size_t i = 0; i < q.a.size(); ++i) q.a[i] = float(std::cos(0.9 * double(i)));
  for (std::size_t i = 0; i < k.a.size(); ++i) k.a[i] = float(std::sin(1.7 * double(i)));
  for (std::size_t i = 0; i < v.a.size(); ++i) v.a[i] = float(3 * std::sin(0.4 * double(i) + 1));
  seeded g(3);
  const auto P = draw_order(g, k.rows);
  const auto B = attention_bound::any_order(q, k, v, convert<hp>(unit_roundoff<float>()),
                                            convert<hp>(std::numeric_limits<float>::min()));
  EXPECT_TRUE(compare_any_order(attention(q, k, v), attention(q, permute_rows(k, P), permute_rows(v, P)), B).within);
  // a kernel that drops the permuted value rows' order (keys permuted alone) breaks it
  EXPECT_FALSE(compare_any_order(attention(q, k, v), attention(q, permute_rows(k, P), v), B).within);
}

}  // namespace
}  // namespace laws_attention_key_value_permutation_test
}  // namespace pv::laws::key_value_permutation
