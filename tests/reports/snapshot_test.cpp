// The committed reports/claims.json is the report of the current branch: a
// fresh `posverify verify` with the same seed and case count must give the
// same verdict for every claim and property, and the same bytes but the build
// line (the committed report is another process's run, the main job's: one
// run here checks both, where two runs took twice the time; that separate
// processes agree byte for byte at a few cases is VerifyShards' too).
#include "core/json.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace reports_snapshot_test {  // this file's names: a unity build compiles several test files as one

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

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

struct temp_dir {
  fs::path path;
  temp_dir() {
    std::string tmpl = (fs::temp_directory_path() / "posverify_snapshot_XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

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

/// Runs verify into `dir`; returns the exit code (or -1 when it did not exit).
int run_verify(const std::string& bin, const fs::path& dir, const std::string& seed, int cases) {
  std::string cmd = "'" + bin + "' verify --out '" + dir.string() + "' --seed " + seed +
                    " --cases " + std::to_string(cases) + " > '" + (dir / "log.txt").string() +
                    "' 2>&1";
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(ReportSnapshot, VerdictsMatchTheCommittedReportAndRunsAreByteIdentical) {
  const fs::path committed = fs::path(POSVERIFY_SOURCE_DIR) / "reports" / "claims.json";
  if (!fs::exists(committed))
    FAIL() << committed << " does not exist: run `build/posverify verify --out reports` in "
           << POSVERIFY_SOURCE_DIR << " and commit reports/claims.json and reports/claims.md";
  const char* bin = std::getenv("POSVERIFY_BIN");
  if (!bin) GTEST_SKIP() << "POSVERIFY_BIN is not set (ctest sets it)";

  const pv::json old = pv::json::parse(slurp(committed));
  const pv::json* seed = old.find("seed");
  ASSERT_TRUE(seed) << "committed report has no seed";
  int cases = 1000;
  if (const pv::json* props = old.find("properties"); props && props->size() > 0)
    cases = static_cast<int>(props->items()[0].second.find("cases")->as_integer());

  temp_dir a;
  const int rc_a = run_verify(bin, a.path, seed->as_string(), cases);
  ASSERT_TRUE(rc_a == 0 || rc_a == 1) << "verify exited " << rc_a << ":\n" << slurp(a.path / "log.txt");

  const std::string json_a = slurp(a.path / "claims.json");
  ASSERT_FALSE(json_a.empty());

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
  const std::string diff = first_difference(without_build(slurp(committed)), without_build(json_a));
  EXPECT_TRUE(diff.empty()) << "a run with seed " << seed->as_string() << " differs from the committed "
                            << "reports/claims.json beyond its build line (regenerate it with `posverify verify "
                            << "--out reports` if the change is intended), first at " << diff;
}

}  // namespace

}  // namespace reports_snapshot_test
