// The permutation law written once (src/laws/attention/permutation_equivariance.h): the
// body finds a broken entry and names it, respects the bound, follows the
// permutation, and its white-box judge holds on a real case.
#include "laws/attention/permutation_equivariance.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pv::laws::permutation_equivariance {
namespace laws_attention_permutation_equivariance_test {  // this file's names: a unity build compiles several test files as one
namespace {

matrix<double> three_by_two() {
  matrix<double> A(3, 2);
  for (std::size_t i = 0; i < A.a.size(); ++i) A.a[i] = 0.25 * double(i) + 1;
  return A;
}

TEST(PermutationLaw, HoldsWhenOutputsMoveWithTheRows) {
  const auto A = three_by_two();
  const permutation P = {2, 0, 1};
  const auto o = compare(A, permute_rows(A, P), P, [](std::size_t, std::size_t) { return hp(0); });
  EXPECT_TRUE(o.within);
  EXPECT_TRUE(o.bitwise_equal);
  EXPECT_EQ(o.max_abs_diff, 0);
  EXPECT_EQ(o.entries, 6u);
}

TEST(PermutationLaw, NamesTheWorstEntryAndComparesWithTheBound) {
  const auto A = three_by_two();
  const permutation P = {2, 0, 1};
  auto B = permute_rows(A, P);
  B(1, 1) = std::nextafter(B(1, 1), 10.0);  // one ulp off
  B(2, 0) += 0.5;                          // far off
  const hp ulp = abs(convert<hp>(B(1, 1)) - convert<hp>(A(0, 1)));
  auto o = compare(A, B, P, [&](std::size_t, std::size_t) { return ulp; });
  EXPECT_FALSE(o.within);
  EXPECT_FALSE(o.bitwise_equal);
  EXPECT_EQ(o.worst_row, 2u);
  EXPECT_EQ(o.worst_col, 0u);
  EXPECT_EQ(o.max_abs_diff, hp(0.5));
  B(2, 0) -= 0.5;  // only the ulp left: within a bound of one ulp, not of zero
  EXPECT_TRUE(compare(A, B, P, [&](std::size_t, std::size_t) { return ulp; }).within);
  EXPECT_FALSE(compare(A, B, P, [](std::size_t, std::size_t) { return hp(0); }).within);
}

TEST(PermutationLaw, TheVisitorSeesSourcesAndMayStop) {
  const auto A = three_by_two();
  const permutation P = {1, 2, 0};
  std::vector<std::size_t> sources;
  const auto o = compare(A, permute_rows(A, P), P, [](std::size_t, std::size_t) { return hp(0); },
                         [&](const entry<double>& e) {
                           sources.push_back(e.source);
                           return sources.size() < 3;
                         });
  EXPECT_EQ(sources, (std::vector<std::size_t>{1, 1, 2}));
  EXPECT_EQ(o.entries, 3u);
  // an empty source means the identity (permuting keys and values together)
  EXPECT_TRUE(compare(A, A, {}, [](std::size_t, std::size_t) { return hp(0); }).within);
}

TEST(PermutationLaw, WhiteBoxJudgeHoldsWithinTheReorderBound) {
  matrix<double> X(5, 3);
  for (std::size_t i = 0; i < X.a.size(); ++i) X.a[i] = std::sin(1.7 * double(i)) * 2;
  const permutation P = {4, 2, 0, 3, 1};
  const auto f = evaluate_attention<float>(X, P);
  EXPECT_TRUE(f.within);
  EXPECT_GT(f.max_bound, 0);
  const auto h = evaluate_attention<hp>(X, P);
  EXPECT_TRUE(h.within);
  // the float64 evaluation of the bound covers the same case
  const auto d = evaluate(X, P, [](const matrix<double>& Y) { return self_attention(Y); }, reorder_tolerance_f64);
  EXPECT_TRUE(d.within);
}

TEST(PermutationLaw, BlackBoxToleranceIsTwiceTheBoundOfTheSourceRow) {
  const auto A = three_by_two();
  const permutation P = {2, 0, 1};
  matrix<hp> B(3, 2);
  for (std::size_t i = 0; i < B.a.size(); ++i) B.a[i] = hp(0.001 * double(i + 1));
  EXPECT_EQ(any_order_tolerance(B, P, 0, 1), 2 * B(2, 1));
  auto AP = permute_rows(A, P);
  AP(0, 1) += 0.009;  // B(2, 1) = 0.006: within 2 B of its source row, not within B
  EXPECT_TRUE(compare_any_order(A, AP, P, B).within);
  AP(0, 1) += 0.007;  // now beyond 2 B = 0.012
  const auto o = compare_any_order(A, AP, P, B);
  EXPECT_FALSE(o.within);
  EXPECT_EQ(o.worst_row, 0u);
  EXPECT_EQ(o.worst_col, 1u);
  EXPECT_NE(any_order_tolerance_rule().find("<= 2 B"), std::string::npos);
}

TEST(PermutationLaw, DrawOrderIsAPermutationFromTheSeed) {
  seeded g(7), again(7);
  const auto p = draw_order(g, 9);
  EXPECT_TRUE(is_permutation_of_n(p));
  EXPECT_EQ(p, draw_order(again, 9));
}

}  // namespace
}  // namespace laws_attention_permutation_equivariance_test
}  // namespace pv::laws::permutation_equivariance
