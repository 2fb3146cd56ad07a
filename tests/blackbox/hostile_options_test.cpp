// What a plugin declares and what the command line or a baseline asks, taken
// exactly: an accuracy class followed by junk is refused, a --law that names
// no law exits 2 with --shard, --panel and --mutation too, and a baseline
// widens a check but never narrows it. docs/reliability.md lists the cases.
#include "core/json.h"
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using pv::plugin_test::plugin_map;
using pv::plugin_test::slurp;

std::string mutant(const std::string& n) { return plugin_map(POSVERIFY_MUTANT_PLUGINS).at(n); }
std::string panel(const std::string& n) { return plugin_map(POSVERIFY_PANEL_PLUGINS).at(n); }
std::string builtin(const std::string& n) { return plugin_map(POSVERIFY_BUILTIN_PLUGINS).at(n); }
std::string hostile(const std::string& n) { return plugin_map(POSVERIFY_HOSTILE_PLUGINS).at(n); }
std::string fresh(const std::string& sub) { return pv::plugin_test::fresh_out_dir("options-" + sub); }

pv::test::run_result check(const std::string& args) { return pv::test::run_posverify("check " + args); }

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

TEST(CheckDeclared, AnAccuracyClassFollowedByJunkIsRefused) {
  auto r = check("--impl " + hostile("accuracy_junk") + " --law attention.reference --cases 3 --out " +
                 fresh("accuracy"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_HAS(r.out, "declares accuracy class 'bfloat16\\x20junk'");
}

TEST(CheckLawFilter, ATypoExits2WithShardPanelAndMutation) {
  const std::string d = fresh("law-typo");
  for (const char* shard : {"1/2", "2/2"}) {
    auto r = check("--impl " + builtin("plain_double") + " --law nosuch --cases 2 --shard " + shard + " --out " + d);
    EXPECT_EQ(r.code, 2) << shard << "\n" << r.out;
    EXPECT_HAS(r.out, "--law: no law of builtin-plain-double has an id starting with 'nosuch'");
    EXPECT_HAS(r.out, "attention.reference");
  }
  auto r = check("--panel " + panel("rope_ladder_f32") + " --law nosuch --cases 2 --out " + d);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_HAS(r.out, "--law: no law of the libraries given has an id starting with 'nosuch'");
  r = check("--mutation " + mutant("rope_sine_sign") + " --law nosuch --cases 2 --out " + d);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_HAS(r.out, "--law: no law of the libraries given has an id starting with 'nosuch'");
  // a law that one shard has and the other has not: both shards run
  for (const char* shard : {"1/2", "2/2"}) {
    r = check("--impl " + builtin("plain_double") + " --law attention.reference[float64] --cases 2 --shard " + shard +
              " --out " + d + "/s" + shard[0]);
    EXPECT_EQ(r.code, 0) << shard << "\n" << r.out;
  }
}

/// options.cases and options.max_position of a check report.
std::pair<long, std::string> options_of(const std::string& json_path) {
  const auto j = pv::json::parse(slurp(json_path));
  const pv::json* o = j.find("options");
  return {long(o->find("cases")->as_integer()), pv::number_text(*o->find("max_position"))};
}

TEST(CheckBaseline, ABaselineWidensTheCheckButNeverNarrowsIt) {
  const std::string d = fresh("baseline-narrow");
  const std::string lib = "--impl " + builtin("plain_double") + " --law attention.reference[float64] ";
  // a baseline of 1 case below position 64
  auto r = check(lib + "--cases 1 --max-position 64 --out " + d + "/a --save-baseline " + d + "/narrow.json");
  ASSERT_EQ(r.code, 0) << r.out;
  // a default check against it keeps the defaults (100 cases, up to 8192)
  r = check(lib + "--baseline " + d + "/narrow.json --out " + d + "/b");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_HAS(r.out, "note: the baseline ran a narrower check; this run keeps 100 cases per law (baseline: 1), "
                    "positions up to 8192 (baseline: 64)");
  auto o = options_of(d + "/b/builtin-plain-double.json");
  EXPECT_EQ(o.first, 100);
  EXPECT_EQ(o.second, "8192");
  // given explicitly, the options are the command line's
  r = check(lib + "--baseline " + d + "/narrow.json --cases 1 --max-position 64 --out " + d + "/c");
  EXPECT_EQ(r.code, 0) << r.out;
  o = options_of(d + "/c/builtin-plain-double.json");
  EXPECT_EQ(o.first, 1);
  EXPECT_EQ(o.second, "64");
  // a wider baseline widens the default run
  r = check(lib + "--cases 120 --max-position 16384 --out " + d + "/d --save-baseline " + d + "/wide.json");
  ASSERT_EQ(r.code, 0) << r.out;
  r = check(lib + "--baseline " + d + "/wide.json --out " + d + "/e");
  EXPECT_EQ(r.code, 0) << r.out;
  o = options_of(d + "/e/builtin-plain-double.json");
  EXPECT_EQ(o.first, 120);
  EXPECT_EQ(o.second, "16384");
}

}  // namespace
