// The line naming the posverify that wrote a report (reports/build_line.h) is
// at the top of the reports of verify, budgets, the fault matrix, the mutation
// suite and the panel (their JSON gets it when written), and a report read back keeps the line it was written
// with (merge joins shards of another binary without renaming it).
#include "reports/build_line.h"

#include "cli/commands.h"
#include "core/json.h"
#include "core/results.h"
#include "core/results_fields.h"
#include "mutation/fault_matrix.h"
#include "reports/budgets_report.h"
#include "reports/claims_report.h"
#include "reports/fault_matrix_report.h"
#include "reports/mutation_report.h"
#include "reports/panel_report.h"

#include <gtest/gtest.h>

#include <string>

namespace reports_build_line_test {  // this file's names: a unity build compiles several test files as one

namespace {

std::string under_title(const std::string& md) {  // the paragraph after the first line
  const auto a = md.find("\n\n");
  return a == std::string::npos ? "" : md.substr(a + 2, md.find("\n\n", a + 2) - a - 2);
}

TEST(BuildLine, IsWhatVersionPrints) { EXPECT_EQ(pv::reports::build_line(), pv::cli::version_text()); }

TEST(BuildLine, TopsTheReportsOfBudgetsAndTheFaultMatrix) {
  const std::string line = pv::reports::build_line(), code = "`" + line + "`";
  EXPECT_EQ(pv::reports::budgets_to_json({}, 1, 10).find("build")->as_string(), line);
  EXPECT_EQ(under_title(pv::reports::budgets_to_markdown({}, 1, 10)), code);
  pv::mutation::fault_matrix m;
  EXPECT_EQ(pv::reports::to_json(m).find("build")->as_string(), line);
  EXPECT_EQ(under_title(pv::reports::to_markdown(m)), code);
}

TEST(BuildLine, AClaimsReportKeepsTheLineItWasWrittenWith) {
  pv::report r;
  r.version = POSVERIFY_VERSION;
  r.build = "posverify 0.0.9 (commit 0123456789ab, plugin ABI 5, pipe protocol 1, MPFR 4.1.0, MPFI 1.5.3, GMP 6.2.1, "
            "Boost 1.74.0)";
  r.precision_bits = 128;
  r.seed = "1";
  const pv::json j = pv::report_fields().write(r);
  EXPECT_EQ(j.find("build")->as_string(), *r.build);
  const pv::report back = pv::report_fields().read(j, "claims.json");
  EXPECT_EQ(back.build, r.build);
  EXPECT_EQ(under_title(pv::reports::to_markdown(back)), "`" + *r.build + "`");
  // a report written before the line was recorded reads back without one
  pv::report old = r;
  old.build.reset();
  const pv::report old_back = pv::report_fields().read(pv::report_fields().write(old), "claims.json");
  EXPECT_FALSE(old_back.build.has_value());
  EXPECT_EQ(pv::reports::to_markdown(old_back).find(*r.build), std::string::npos);
}

TEST(BuildLine, TheMutationMarkdownShowsTheLineOfItsJson) {
  const std::string line = "posverify 0.0.9 (commit unknown, plugin ABI 6, pipe protocol 1, MPFR 4.2.0, MPFI 1.5.3, "
                           "GMP 6.2.1, Boost 1.74.0)";
  pv::json mut = pv::json::object();
  mut.set("seed", pv::json::string("1"));
  mut.set("cases", pv::json::integer(100));
  mut.set("rows", pv::json::array());
  mut.set("caught", pv::json::integer(0));
  mut.set("mutants", pv::json::integer(0));
  mut.set("build", pv::json::string(line));
  EXPECT_EQ(under_title(pv::reports::mutation_markdown(mut)).rfind("`" + line + "`", 0), 0u);
}

}  // namespace

}  // namespace reports_build_line_test
