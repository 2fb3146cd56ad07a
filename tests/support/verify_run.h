// One `posverify verify` run at the committed report's seed and case count,
// shared by the tests that read its claims (ReportSnapshot, ClaimsCatalogue,
// ProofVerdicts): the ctest fixture reports.verify_run runs it once
// (tests/reports/verify_run.cmake) and names its folder in
// POSVERIFY_VERIFY_RUN; a test binary run by hand runs it itself, once per
// process, into a temporary folder.
#pragma once

#include "core/json.h"
#include "support/run_posverify.h"
#include "support/slurp.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace pv::test {

/// The committed reports/claims.json of the source tree ("" if absent).
inline std::string committed_claims_json() {
  return slurp(std::string(POSVERIFY_SOURCE_DIR) + "/reports/claims.json");
}

/// The seed and property case count of the committed report (the main
/// job's run), as `verify --seed S --cases N` takes them.
inline std::string committed_run_flags(const json& committed) {
  const json* seed = committed.find("seed");
  if (!seed) throw std::runtime_error("the committed reports/claims.json has no seed");
  long long cases = 1000;
  if (const json* props = committed.find("properties"); props && props->size() > 0)
    cases = props->items()[0].second.find("cases")->as_integer();
  return "--seed " + seed->as_string() + " --cases " + std::to_string(cases);
}

/// The folder of the run (its claims.json, claims.md and log.txt). Throws
/// std::runtime_error naming what is missing: the committed report, the
/// binary (POSVERIFY_BIN), or a run that did not exit 0 or 1.
inline std::string verify_run_dir() {
  namespace fs = std::filesystem;
  if (const char* d = std::getenv("POSVERIFY_VERIFY_RUN"); d && fs::exists(fs::path(d) / "claims.json")) return d;
  static const std::string own = [] {
    const std::string committed = committed_claims_json();
    if (committed.empty())
      throw std::runtime_error(std::string(POSVERIFY_SOURCE_DIR) +
                               "/reports/claims.json does not exist: run `build/posverify verify --out reports` "
                               "and commit reports/claims.json and reports/claims.md");
    if (!std::getenv("POSVERIFY_BIN")) throw std::runtime_error("POSVERIFY_BIN is not set (ctest sets it)");
    std::string tmpl = (fs::temp_directory_path() / "posverify_verify_run_XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    const auto r = run_posverify_in("", "verify --out '" + tmpl + "' " + committed_run_flags(json::parse(committed)));
    if (r.code != 0 && r.code != 1) throw std::runtime_error("verify exited " + std::to_string(r.code) + ":\n" + r.out);
    return tmpl;
  }();
  return own;
}

}  // namespace pv::test
