// The printed-digit comparison of the claims (src/claims/printed.h).
#include "claims/printed.h"

#include "reference/mp.h"

#include <gtest/gtest.h>

namespace pv::claims {
namespace claims_printed_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(ClaimsPrinted, FixedRoundsLikeTheChapterPrints) {
  EXPECT_EQ(fixed(ref::parse("0.86602540378"), 3), "0.866");
  EXPECT_EQ(fixed(ref::parse("-0.0396193444"), 3), "-0.040");
  EXPECT_EQ(fixed(ref::parse("1.6203117"), 3), "1.620");
  EXPECT_EQ(fixed(ref::parse("-1e-77"), 0), "0");      // no sign on a rounded zero
  EXPECT_EQ(fixed(ref::parse("-0.0004"), 3), "0.000");
  EXPECT_EQ(fixed(ref::parse("130"), 0), "130");
  EXPECT_EQ(fixed(ref::parse("0.0625"), 3), "0.063");  // half away from zero
  EXPECT_EQ(fixed(ref::parse("-2.5"), 0), "-3");
}

TEST(ClaimsPrinted, PrintedCheckReportsEachMismatch) {
  printed_check pc;
  EXPECT_TRUE(pc.compare(ref::parse("0.1229729912"), "0.123", "a"));
  EXPECT_FALSE(pc.compare(ref::parse("0.1229729912"), "0.122", "b"));
  EXPECT_FALSE(pc.all_agree());
  EXPECT_NE(pc.summary().find("1 of 2"), std::string::npos) << pc.summary();
  EXPECT_NE(pc.summary().find("b = 1.2297299120e-01 rounds to 0.123, printed 0.122"), std::string::npos)
      << pc.summary();
}

}  // namespace
}  // namespace claims_printed_test
}  // namespace pv::claims
