// The committed reports/claims.json is the report of the current branch: a
// fresh `posverify verify` with the same seed and case count must give the
// same verdict for every claim and property, and the same bytes but the build
// line (the committed report is another process's run, the main job's; the
// fresh one is the ctest fixture's, tests/support/verify_run.h; that separate
// processes agree byte for byte at a few cases is VerifyShards' too).
#include "core/json.h"
#include "support/verify_run.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>

namespace reports_snapshot_test {  // this file's names: a unity build compiles several test files as one

namespace {

namespace fs = std::filesystem;
using pv::test::slurp;

/// "claim <id>" / "property <id>" -> verdict.
std::map<std::string, std::string> verdicts(const pv::json& report) {
  std::map<std::string, std::string> out;
  for (const char* part : {"claims", "properties"}) {
    const pv::json* list = report.find(part);
    if (!list) continue;
    for (const auto& kv : list->items()) {
      const pv::json* id = kv.second.find("id");
      const pv::json* v = kv.second.find("verdict");
      if (id && v) out[std::string(part) + " " + id->as_string()] = v->as_string();
    }
  }
  return out;
}

/// A report without its build line (commit, versions: the one field a run
/// of the same seed and cases may change).
std::string without_build(const std::string& s) {
  static const std::regex build("\"build\": \"[^\"]*\"");
  return std::regex_replace(s, build, "\"build\": \"\"");
}

/// The first line where a and b differ, as "line N: A | B".
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream x(a), y(b);
  std::string la, lb;
  for (int n = 1;; ++n) {
    const bool ga = bool(std::getline(x, la)), gb = bool(std::getline(y, lb));
    if (!ga && !gb) return "";
    if (!ga || !gb || la != lb) return "line " + std::to_string(n) + ": " + la + " | " + lb;
  }
}

TEST(ReportSnapshot, VerdictsMatchTheCommittedReportAndRunsAreByteIdentical) {
  const fs::path committed = fs::path(POSVERIFY_SOURCE_DIR) / "reports" / "claims.json";
  std::string dir;
  try {
    dir = pv::test::verify_run_dir();
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  const pv::json old = pv::json::parse(slurp(committed.string()));
  const std::string json_a = slurp(dir + "/claims.json");
  ASSERT_FALSE(json_a.empty()) << dir;

  auto before = verdicts(old), after = verdicts(pv::json::parse(json_a));
  std::string changes;
  for (const auto& [id, v] : before) {
    auto it = after.find(id);
    if (it == after.end()) changes += "  " + id + ": " + v + " -> (missing)\n";
    else if (it->second != v) changes += "  " + id + ": " + v + " -> " + it->second + "\n";
  }
  for (const auto& [id, v] : after)
    if (!before.count(id)) changes += "  " + id + ": (new) -> " + v + "\n";
  EXPECT_TRUE(changes.empty()) << "verdicts changed against the committed reports/claims.json "
                                  "(regenerate it with `posverify verify --out reports` if the "
                                  "change is intended):\n"
                               << changes;
  // and every other byte: the committed report was written by another process
  const std::string diff = first_difference(without_build(slurp(committed.string())), without_build(json_a));
  EXPECT_TRUE(diff.empty()) << "a run with " << pv::test::committed_run_flags(old) << " differs from the committed "
                            << "reports/claims.json beyond its build line (regenerate it with `posverify verify "
                            << "--out reports` if the change is intended), first at " << diff;
}

}  // namespace

}  // namespace reports_snapshot_test
