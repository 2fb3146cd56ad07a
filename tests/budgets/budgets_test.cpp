// Error budgets: every observed error within its a-priori bound; a bound made
// deliberately too small is exceeded; the command writes both files.
#include "budgets/budgets.h"
#include "reports/budgets_report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace pv::budgets {
namespace budgets_budgets_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(ErrorBudgets, ObservedErrorsWithinBounds) {
  const auto rows = run_budgets(/*seed=*/1, /*cases=*/200);
  ASSERT_EQ(rows.size(), 16u);
  for (const auto& r : rows) {
    std::cout << r.law << " | " << r.impl << ": max " << r.max_ulps << " ulps, rms " << r.rms_ulps
              << ", max/bound " << r.max_ratio << ", rms/bound " << r.rms_ratio << "\n";
    EXPECT_TRUE(r.within_bound) << r.law << " " << r.impl << ": " << r.max_ratio
                                << " of the bound at case " << r.worst_case << ": " << r.worst_input;
    EXPECT_EQ(r.cases, 200u);
    EXPECT_GT(r.entries, 0u);
    if (r.impl.find("correctly_rounded") != std::string::npos &&
        r.law.rfind("attention.permutation", 0) == 0) {
      EXPECT_EQ(r.max_ulps, 0.0);  // order-independent: bit for bit
    } else {
      // Not vacuous: the worst case comes within a factor 1000 of the bound.
      EXPECT_GT(r.max_ratio, 1e-3) << r.law << " " << r.impl;
    }
  }
}

TEST(ErrorBudgets, PlantedTooSmallBoundIsExceeded) {
  // A bound 10^-4 of the derived one (about what a bound that forgot the
  // growth with n or the angle would give) must be caught.
  const auto rows = run_budgets(1, 50, 1e-4);
  std::size_t exceeded = 0;
  for (const auto& r : rows) exceeded += !r.within_bound;
  // Every row except the bitwise-exact ones (residual 0) must exceed it.
  EXPECT_GE(exceeded, rows.size() - 2);
}

TEST(ErrorBudgets, SameSeedSameTable) {
  const auto a = reports::budgets_to_json(run_budgets(5, 20), 5, 20).dump();
  const auto b = reports::budgets_to_json(run_budgets(5, 20), 5, 20).dump();
  EXPECT_EQ(a, b);
}

TEST(ErrorBudgets, WorstCaseReplaysAlone) {
  const auto rows = run_budgets(1, 60);
  for (const auto& r : rows) {
    if (r.max_ratio == 0) continue;
    const auto one = run_budgets(1, 1, 1, r.worst_case);
    bool found = false;
    for (const auto& o : one)
      if (o.law == r.law && o.impl == r.impl) {
        found = true;
        EXPECT_EQ(o.max_ratio, r.max_ratio) << r.law << " " << r.impl;
        EXPECT_EQ(o.worst_input, r.worst_input);
      }
    EXPECT_TRUE(found);
  }
}

TEST(ErrorBudgets, CommandWritesBothFiles) {
  const char* bin = std::getenv("POSVERIFY_BIN");
  if (!bin) GTEST_SKIP() << "POSVERIFY_BIN not set (run through ctest)";
  char tmpl[] = "/tmp/pv_budgets_XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  const std::string cmd = std::string(bin) + " budgets --out " + dir + "/out --seed 3 --cases 20 > /dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::ifstream md(dir + "/out/error_budgets.md"), js(dir + "/out/error_budgets.json");
  ASSERT_TRUE(md.good());
  ASSERT_TRUE(js.good());
  std::stringstream ss;
  ss << js.rdbuf();
  const auto j = json::parse(ss.str());
  EXPECT_TRUE(j.find("all_within_bounds")->as_bool());
  EXPECT_EQ(j.find("rows")->size(), 16u);
  // Bad usage: exit 2, nothing written.
  const std::string bad = std::string(bin) + " budgets --out " + dir + "/bad --cases x 2> /dev/null";
  const int rc = std::system(bad.c_str());
  EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
  std::ifstream none(dir + "/bad/error_budgets.md");
  EXPECT_FALSE(none.good());
  std::system(("rm -rf " + dir).c_str());
}

}  // namespace
}  // namespace budgets_budgets_test
}  // namespace pv::budgets
