// The history section's printed numbers (claims/history_printed.h): the
// certificates certify exactly the table's figures, and no other file types
// its decimals. (sinusoid.wavelengths prints no `printed` list: the chapter
// gives 2 pi and 10000 * 2 pi, which the claim compares as multiples of 2 pi.)
#include "claims/history_printed.h"
#include "printed_tables.h"

namespace pv::claims::test {
namespace claims_history_printed_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(HistoryPrinted, WavelengthsReadTheirTable) {
  const auto& t = printed_numbers::sinusoid_wavelengths;
  const std::string first = std::to_string(t.first_over_2pi), limit = std::to_string(t.limit_over_2pi);
  const entries want = {{"wavelength_first / 2pi", first},
                        {"limit / 2pi", limit},
                        {"wavelength_last / 2pi (d = 512)", limit},
                        {"wavelength_first", t.first},
                        {"wavelength_last (d = 512)", limit + "*2*pi (" + t.limit + ")"}};
  EXPECT_EQ(certificate_entries("sinusoid.wavelengths"), want);
  const auto r = run_claim("sinusoid.wavelengths");
  EXPECT_TRUE(printed_entries(r).empty());
  // The claim's verdict text names the printed limit as the table spells it.
  ASSERT_TRUE(r.summary.has_value());
  EXPECT_NE(r.summary->find("the printed " + limit + " * 2 pi is the limit"), std::string::npos) << *r.summary;
  EXPECT_EQ(typed_elsewhere("history_printed.h", {t.first, t.limit}), std::vector<std::string>{});
}

}  // namespace
}  // namespace claims_history_printed_test
}  // namespace pv::claims::test
