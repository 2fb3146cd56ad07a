// Problem 6's printed numbers (claims/problem6_printed.h): each claim prints
// exactly its table's entries, and its certificates certify exactly them.
#include "claims/problem6_printed.h"
#include "printed_tables.h"

namespace pv::claims::test {
namespace claims_problem6_printed_test {  // this file's names: a unity build compiles several test files as one
namespace {

namespace P = printed_numbers;

TEST(Problem6Printed, SdNoEncodingReadsItsTable) {
  const entries want = {{"tokens", std::to_string(P::p6_sd_no_encoding.tokens)}};
  const auto r = run_claim("p6.sd-no-encoding");
  EXPECT_EQ(printed_entries(r), want);
  EXPECT_EQ(int_value(r, "tokens"), P::p6_sd_no_encoding.side * P::p6_sd_no_encoding.side);
  EXPECT_EQ(certificate_entries("p6.sd-no-encoding"), want);
}

TEST(Problem6Printed, IdenticalCentresReadsItsTable) {
  EXPECT_EQ(printed_entries(run_claim("p6.identical-centres")),
            (entries{{"max_abs_diff_hp", std::to_string(P::p6_identical_centres.max_abs_diff_hp)}}));
  EXPECT_TRUE(certificate_entries("p6.identical-centres").empty());
}

TEST(Problem6Printed, FluxBagReadsItsTable) {
  const entries want = {{"tokens", std::to_string(P::p6_flux_bag.tokens)}};
  EXPECT_EQ(printed_entries(run_claim("p6.flux-bag")), want);
  EXPECT_EQ(certificate_entries("p6.flux-bag"), want);
}

}  // namespace
}  // namespace claims_problem6_printed_test
}  // namespace pv::claims::test
