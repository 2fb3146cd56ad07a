// The fault matrix: every checkable claim and every property is
// run under every planted fault; each must be flipped by at least one, so no
// verdict stands that has not been shown able to fail. The committed
// reports/fault_matrix.json must say the same as a fresh run.
#include "mutation/fault_matrix.h"
#include "reports/fault_matrix_report.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace pv::mutation {
namespace mutation_fault_matrix_test {  // this file's names: a unity build compiles several test files as one
using reports::to_json;
using reports::to_markdown;
namespace {

namespace fs = std::filesystem;

/// One run of the matrix (the expensive part: about 70 s of CPU). ctest runs
/// every test in a process of its own, so the whole check is one test.
const fault_matrix& matrix_once() {
  static const fault_matrix m = [] {
    fault_matrix_options o;
    o.seed = 1;
    o.property_cases = 100;
    return run_fault_matrix(o);
  }();
  return m;
}

void every_checkable_verdict_is_flipped() {
  const auto& m = matrix_once();
  std::size_t n = 0;
  all_faults(&n);
  EXPECT_EQ(m.faults.size(), n);
  EXPECT_EQ(m.claims.size(), 31u);
  EXPECT_GE(m.properties.size(), 14u);
  std::string none;
  for (const auto& id : m.unflipped()) none += " " + id;
  EXPECT_TRUE(none.empty()) << "flipped by no planted fault:" << none;
  // The baseline holds: a verdict that already fails cannot be flipped.
  for (const auto& r : m.claims) EXPECT_NE(r.baseline, pv::verdict::fails) << r.id;
  for (const auto& r : m.properties) EXPECT_EQ(r.baseline, pv::verdict::passed) << r.id;
  // Only the not-checkable claim is exempt.
  for (const auto& r : m.claims)
    if (!r.checkable) {
      EXPECT_EQ(r.id, "sinusoid.learned-similar");
    }
}

void named_flips_of_the_issue() {
  const auto& m = matrix_once();
  auto flipped = [&](const std::string& id, const std::string& fault) {
    for (const auto* rows : {&m.claims, &m.properties})
      for (const auto& r : *rows)
        if (r.id == id)
          for (const auto& f : r.flipped_by(m.faults))
            if (f == fault) return true;
    return false;
  };
  EXPECT_TRUE(flipped("attention.permutation_equivariance", "attention_causal_mask"));
  EXPECT_TRUE(flipped("encoding.breaks_permutation_symmetry", "positions_ignored"));
  EXPECT_TRUE(flipped("p6.conv-position-unmeasured", "conv_circular_padding"));
  EXPECT_TRUE(flipped("rope.example-30deg", "rope_sine_sign"));
  EXPECT_TRUE(flipped("flux.axes", "flux_axes_swapped"));
  EXPECT_TRUE(flipped("carousel.d", "speed_integer_exponent"));
}

void reports_name_every_fault_and_the_cases() {
  const auto& m = matrix_once();
  const std::string md = to_markdown(m);
  for (const auto& f : m.faults) EXPECT_NE(md.find(std::string("`") + f.name + "`"), std::string::npos);
  EXPECT_NE(md.find("100 cases each"), std::string::npos);
  const json j = json::parse(to_json(m).dump());
  EXPECT_EQ(j.find("property_cases")->as_integer(), 100);
  EXPECT_EQ(j.find("flipped_by_no_fault")->size(), m.unflipped().size());
}

/// id -> flipped_by, from a fault_matrix.json.
std::map<std::string, std::string> flips(const json& j) {
  std::map<std::string, std::string> out;
  for (const char* part : {"claims", "properties"})
    for (const auto& kv : j.find(part)->items()) {
      std::string s;
      for (const auto& f : kv.second.find("flipped_by")->items()) s += f.second.as_string() + " ";
      out[kv.second.find("id")->as_string()] = s;
    }
  return out;
}

void committed_report_matches_a_fresh_run() {
  const fs::path committed = fs::path(POSVERIFY_SOURCE_DIR) / "reports" / "fault_matrix.json";
  ASSERT_TRUE(fs::exists(committed)) << committed << " missing: run `build/posverify verify "
                                                     "--fault-matrix --out reports`";
  std::ifstream f(committed);
  std::stringstream ss;
  ss << f.rdbuf();
  const auto old = flips(json::parse(ss.str()));
  const auto now = flips(to_json(matrix_once()));
  EXPECT_EQ(old, now) << "regenerate with `build/posverify verify --fault-matrix --out reports`";
}

TEST(FaultMatrix, EveryVerdictIsFlippedByAPlantedFaultAndTheReportSaysSo) {
  every_checkable_verdict_is_flipped();
  named_flips_of_the_issue();
  reports_name_every_fault_and_the_cases();
  committed_report_matches_a_fresh_run();
}

}  // namespace
}  // namespace mutation_fault_matrix_test
}  // namespace pv::mutation
