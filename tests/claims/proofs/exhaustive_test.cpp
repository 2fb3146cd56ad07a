// Exhaustive proofs: every order, every position triple, every distance; and
// the planted counterexamples they must reject.
#include "claims/proofs/exhaustive.h"

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

namespace pv::proofs {
namespace claims_proofs_exhaustive_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(ExhaustiveOrders, SixCellsEveryOrder) {
  const auto X = six_cell_input();
  EXPECT_EQ(all_permutations(6).size(), 720u);
  const auto h = sweep_orders<hp>(X, attention_options<hp>{});
  EXPECT_EQ(h.orders, 720u);
  EXPECT_TRUE(h.within_bound) << ref::to_decimal(h.max_ratio_to_bound, 6);
  attention_options<double> od;
  od.sum = reduction::correctly_rounded;
  attention_options<float> of;
  of.sum = reduction::correctly_rounded;
  const auto d = sweep_orders<double>(X, od);
  const auto f = sweep_orders<float>(X, of);
  EXPECT_TRUE(d.bitwise_equal);
  EXPECT_TRUE(f.bitwise_equal);
  EXPECT_EQ(d.max_ulps, 0);
  EXPECT_EQ(f.max_ulps, 0);
}

TEST(ExhaustiveOrders, P5TokensEveryOrder) {
  const auto j = p5_orders_proof();
  EXPECT_EQ(j.find("verdict")->as_string(), "proved (exhaustive: every order)");
  EXPECT_EQ(j.find("hp")->find("orders")->as_integer(), 6);
}

TEST(ExhaustiveOrders, PlantedSequentialSumIsNotBitwiseExact) {
  // The ordinary left-to-right reduction depends on the order: over all 720
  // orders some entry changes bits, so the bitwise check must say so.
  const auto X = six_cell_input();
  const auto d = sweep_orders<double>(X, attention_options<double>{});
  const auto f = sweep_orders<float>(X, attention_options<float>{});
  EXPECT_FALSE(d.bitwise_equal && f.bitwise_equal);
  EXPECT_TRUE(d.within_bound);  // but within the Higham reorder bound
  EXPECT_TRUE(f.within_bound);
}

TEST(ExhaustiveOrders, PlantedCausalMaskIsRejected) {
  // A position-aware attention (causal mask) is not permutation-equivariant.
  attention_options<hp> o;
  o.causal = true;
  const auto h = sweep_orders<hp>(six_cell_input(), o);
  EXPECT_FALSE(h.within_bound);
}

TEST(ExhaustiveRope30, EveryTripleInTheBox) {
  const auto t0 = std::chrono::steady_clock::now();
  const vec3 one{qsqrt3{1, 0}, qsqrt3{0, 0}};
  const auto p = prove_rope30(one, one, 64);
  EXPECT_EQ(p.triples, 64 * 64 * 64);
  EXPECT_TRUE(p.shift_invariant) << p.counterexample;
  EXPECT_TRUE(p.depends_on_diff_mod_12) << p.counterexample;
  EXPECT_TRUE(p.dot_2_5 == qsqrt3{});
  EXPECT_TRUE(p.dot_7_10 == qsqrt3{});
  EXPECT_TRUE((p.dot_3_4 == qsqrt3{0, rational(1, 2)}));  // sqrt(3)/2 exactly
  std::cout << "rope30 box 64: "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s\n";
}

TEST(ExhaustiveRope30, GenericVectors) {
  const vec3 q{qsqrt3{rational(2, 3), 0}, qsqrt3{rational(-5, 7), 0}};
  const vec3 k{qsqrt3{rational(1, 4), 0}, qsqrt3{3, rational(1, 2)}};
  const auto p = prove_rope30(q, k, 24);
  EXPECT_TRUE(p.shift_invariant && p.depends_on_diff_mod_12) << p.counterexample;
}

TEST(ExhaustiveRope30, PlantedSineSignFaultIsRejected) {
  // The fault of pv::fault::rope_sine_sign: x'_1 = x1 c - x0 s.
  rotation_rule faulty = [](const vec3& x, const qsqrt3& c, const qsqrt3& s) {
    return vec3{x[0] * c - x[1] * s, x[1] * c - x[0] * s};
  };
  const vec3 q{qsqrt3{rational(2, 3), 0}, qsqrt3{rational(-5, 7), 0}};
  const vec3 k{qsqrt3{rational(1, 4), 0}, qsqrt3{3, 0}};
  const auto p = prove_rope30(q, k, 16, faulty);
  EXPECT_FALSE(p.shift_invariant);
  EXPECT_FALSE(p.counterexample.empty());
}

TEST(ExhaustiveSingleSpeed, AlikeExactlyWhenCongruent) {
  for (auto [p, q] : {std::pair<long, long>{1, 12}, {5, 12}, {3, 7}, {7, 30}, {11, 64}}) {
    const auto r = prove_single_speed(p, q);
    EXPECT_TRUE(r.alike_iff_congruent) << p << "/" << q << ": " << r.counterexample;
  }
}

TEST(ExhaustiveSingleSpeed, PlantedUnreducedSpeedIsRejected) {
  // w = 2 pi * 2/12 repeats every 6 positions, not 12: the claim "alike iff
  // congruent mod q" is false for it, and the check must find the pair.
  const auto r = prove_single_speed(2, 12);
  EXPECT_FALSE(r.alike_iff_congruent);
  EXPECT_NE(r.counterexample.find("look alike"), std::string::npos);
}

}  // namespace
}  // namespace claims_proofs_exhaustive_test
}  // namespace pv::proofs
