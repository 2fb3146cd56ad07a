// The fault matrix: every checkable claim and every property is
// run under every planted fault; each must be flipped by at least one, so no
// verdict stands that has not been shown able to fail. The committed
// reports/fault_matrix.json must say the same as a fresh run.
#include "mutation/fault_matrix.h"
#include "claims/registry.h"
#include "properties/runner.h"
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

/// The matrix runs again under a fault only what asked about it in the
/// baseline; under the faults that reach the most of the chapter (RoPE and
/// the sinusoid's positions, the additive encoding's sum), every claim and
/// property run again gives the matrix's verdict.
void pruned_columns_equal_whole_runs() {
  const auto& m = matrix_once();
  for (const char* name : {"positions_ignored", "add_rounds_to_float32"}) {
    std::size_t f = 0;
    while (f < m.faults.size() && std::string(m.faults[f].name) != name) ++f;
    ASSERT_LT(f, m.faults.size()) << name;
    scoped_fault planted(m.faults[f].f);
    prop::run_options po;
    po.seed = m.seed;
    po.cases = m.property_cases;
    std::vector<property_result> props;
    for (const auto& p : prop::property_registry()) props.push_back(prop::run_property(p, po));
    claims::claim_context ctx;
    ctx.seed = m.seed;
    ctx.properties = &props;
    ctx.studies = false;
    const auto cl = claims::run_claims(ctx);
    ASSERT_EQ(props.size(), m.properties.size());
    ASSERT_EQ(cl.size(), m.claims.size());
    for (std::size_t i = 0; i < props.size(); ++i)
      EXPECT_EQ(props[i].verdict, m.properties[i].under.at(f)) << m.properties[i].id << " under " << name;
    for (std::size_t i = 0; i < cl.size(); ++i)
      EXPECT_EQ(cl[i].result, m.claims[i].under.at(f)) << m.claims[i].id << " under " << name;
  }
}

TEST(FaultMatrix, EveryVerdictIsFlippedByAPlantedFaultAndTheReportSaysSo) {
  every_checkable_verdict_is_flipped();
  named_flips_of_the_issue();
  reports_name_every_fault_and_the_cases();
  committed_report_matches_a_fresh_run();
  pruned_columns_equal_whole_runs();
}

// fault_is() records the faults it is asked about, planted or not.
TEST(FaultMatrix, AskingAboutAFaultIsRecorded) {
  consulted_faults() = 0;
  EXPECT_FALSE(fault_is(fault::rope_sine_sign));
  {
    scoped_fault planted(fault::sinusoid_swap);
    EXPECT_TRUE(fault_is(fault::sinusoid_swap));
  }
  const std::uint32_t asked = consulted_faults();
  EXPECT_EQ(asked, (1u << unsigned(fault::rope_sine_sign)) | (1u << unsigned(fault::sinusoid_swap)));
  consulted_faults() = 0;
}

}  // namespace
}  // namespace mutation_fault_matrix_test
}  // namespace pv::mutation
