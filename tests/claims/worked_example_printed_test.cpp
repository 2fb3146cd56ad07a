// The worked example's printed numbers (claims/worked_example_printed.h):
// the claims print and compare exactly the table's entries, the certificates
// certify exactly them, and no other file types them.
#include "claims/worked_example_printed.h"
#include "printed_tables.h"

namespace pv::claims::test {
namespace claims_worked_example_printed_test {  // this file's names: a unity build compiles several test files as one
namespace {

namespace P = printed_numbers;

TEST(WorkedExamplePrinted, Rope30DegreeReadsItsTable) {
  const auto& t = P::rope_example_30deg;
  const entries want = {{"dot_2_5", t.dot_2_5}, {"dot_7_10", t.dot_7_10}, {"dot_3_4", t.dot_3_4}};
  const auto r = run_claim("rope.example-30deg");
  EXPECT_EQ(printed_entries(r), want);
  EXPECT_EQ(printed_numbers_compared(r), 3);
  EXPECT_EQ(certificate_entries("rope.example-30deg"), want);
  EXPECT_EQ(typed_elsewhere("worked_example_printed.h", {t.dot_2_5, t.dot_7_10, t.dot_3_4}),
            std::vector<std::string>{});
}

TEST(WorkedExamplePrinted, AdditiveExampleReadsItsTable) {
  const auto& t = P::additive_example;
  const entries want = {{"dot_2_5", t.dot_2_5}, {"dot_7_10", t.dot_7_10}};
  const auto r = run_claim("additive.example");
  EXPECT_EQ(printed_entries(r), want);
  EXPECT_EQ(printed_numbers_compared(r), 2);
  // The chapter's reading and the two rejected readings, each against both figures.
  entries certs = want;
  for (const std::string tag : {"cos_sin_order", "position_only"}) {
    certs["dot_2_5 [" + tag + "]"] = t.dot_2_5;
    certs["dot_7_10 [" + tag + "]"] = t.dot_7_10;
  }
  EXPECT_EQ(certificate_entries("additive.example"), certs);
  EXPECT_EQ(typed_elsewhere("worked_example_printed.h", {t.dot_2_5, t.dot_7_10}), std::vector<std::string>{});
}

}  // namespace
}  // namespace claims_worked_example_printed_test
}  // namespace pv::claims::test
