// The FLUX.1 section's printed numbers (claims/flux_printed.h): flux.axes
// prints exactly the table's entries and its verdict text names them.
#include "claims/flux_printed.h"
#include "printed_tables.h"

namespace pv::claims::test {
namespace claims_flux_printed_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(FluxPrinted, AxesReadTheirTable) {
  const auto& t = printed_numbers::flux_axes;
  std::string dims = "[";
  for (std::size_t i = 0; i < t.axes_dim.size(); ++i) dims += (i ? ", " : "") + std::to_string(t.axes_dim[i]);
  dims += "]";
  const entries want = {{"axes_dim", dims}, {"theta", std::to_string(t.theta)}, {"head_dim", std::to_string(t.head_dim)}};
  const auto r = run_claim("flux.axes");
  EXPECT_EQ(printed_entries(r), want);
  EXPECT_NE(r.checked.find("with the chapter's " + dims), std::string::npos) << r.checked;
  EXPECT_TRUE(certificate_entries("flux.axes").empty());
}

}  // namespace
}  // namespace claims_flux_printed_test
}  // namespace pv::claims::test
