// The opening section's printed numbers (claims/opening_printed.h).
#include "claims/opening_printed.h"
#include "printed_tables.h"

namespace pv::claims::test {
namespace claims_opening_printed_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(OpeningPrinted, SixCellsReadsItsTable) {
  const auto& t = printed_numbers::perm_six_cells;
  const auto r = run_claim("perm.six-cells");
  EXPECT_EQ(printed_entries(r), (entries{{"max_abs_diff_hp", std::to_string(t.max_abs_diff_hp)}}));
  EXPECT_TRUE(certificate_entries("perm.six-cells").empty());
}

}  // namespace
}  // namespace claims_opening_printed_test
}  // namespace pv::claims::test
