// The bitwise study: the correctly rounded reduction is bitwise exact over
// all 720 orders; the sequential one is not (but stays within its bound).
#include "claims/proofs/bitwise_study.h"
#include "claims/proofs/exhaustive.h"

#include <gtest/gtest.h>

#include <iostream>

namespace pv::proofs {
namespace claims_proofs_bitwise_study_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(BitwiseStudy, CorrectlyRoundedIsExactSequentialIsNot) {
  const auto cells = bitwise_study(/*seed=*/1, /*inputs=*/4);
  ASSERT_EQ(cells.size(), 4u);
  std::int64_t seq_ulps = 0;
  for (const auto& c : cells) {
    std::cout << c.type << " " << c.reduction << ": six cells " << c.six_cell_max_ulps
              << " ulps (chapter order " << c.chapter_order_max_ulps << "), random "
              << c.random_max_ulps << " ulps, " << c.random_orders_not_bitwise << "/"
              << c.random_orders << " orders not bitwise\n";
    EXPECT_TRUE(c.within_reorder_bound);
    if (c.reduction == "correctly_rounded") {
      EXPECT_TRUE(c.six_cell_bitwise);
      EXPECT_EQ(c.random_orders_not_bitwise, 0u);
      EXPECT_EQ(c.random_max_ulps, 0);
    } else {
      seq_ulps = std::max({seq_ulps, c.six_cell_max_ulps, c.random_max_ulps});
    }
  }
  // The planted counterexample of the bitwise check: an order-dependent sum.
  EXPECT_GT(seq_ulps, 0);
}

TEST(BitwiseStudy, InputsAreReplayable) {
  EXPECT_EQ(study_input(7, 3).a, study_input(7, 3).a);
  EXPECT_NE(study_input(7, 3).a, study_input(7, 4).a);
  for (double x : study_input(7, 3).a) EXPECT_EQ(static_cast<double>(static_cast<float>(x)), x);
}

TEST(Ulps, Distance) {
  EXPECT_EQ(ulp_distance(1.0, std::nextafter(1.0, 2.0)), 1);
  EXPECT_EQ(ulp_distance(-1.0f, std::nextafter(-1.0f, 0.0f)), 1);
  EXPECT_EQ(ulp_distance(std::nextafter(0.0, -1.0), std::nextafter(0.0, 1.0)), 2);
  EXPECT_FALSE(same_bits(0.0, -0.0));
}

}  // namespace
}  // namespace claims_proofs_bitwise_study_test
}  // namespace pv::proofs
