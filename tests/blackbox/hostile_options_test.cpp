// What a plugin declares and what the command line or a baseline asks, taken
// exactly: an accuracy class followed by junk is refused, a --law that names
// no law exits 2 with --shard, --panel and --mutation too, and a baseline
// widens a check but never narrows it. docs/reliability.md lists the cases.
#include "core/json.h"
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace blackbox_hostile_options_test {  // this file's names: a unity build compiles several test files as one

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

/// The ids of the laws of a check report, in its order.
std::vector<std::string> law_ids(const std::string& json_path) {
  std::vector<std::string> ids;
  const auto report = pv::json::parse(slurp(json_path));
  for (const auto& kv : report.find("laws")->items())
    ids.push_back(kv.second.find("id")->as_string());
  return ids;
}

/// The lines of a text (each ended by a newline; a last one without is kept).
std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t a = 0, b; a < text.size(); a = b + 1) {
    b = text.find('\n', a);
    if (b == std::string::npos) b = text.size();
    out.push_back(text.substr(a, b - a));
  }
  return out;
}

TEST(CheckLawFilter, SeveralPrefixesRunTheLawsOfEachAndATypoInOneExits2) {
  const std::string d = fresh("law-several");
  auto r = check("--impl " + builtin("scaled_rope") + " --law rope.rows --law rope.shift --cases 2 --out " + d);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto ids = law_ids(d + "/builtin-scaled-rope.json");
  ASSERT_FALSE(ids.empty());
  int rows = 0, shift = 0;
  for (const auto& id : ids) {
    rows += id.rfind("rope.rows[", 0) == 0, shift += id.rfind("rope.shift_invariance[", 0) == 0;
    EXPECT_TRUE(id.rfind("rope.rows[", 0) == 0 || id.rfind("rope.shift_invariance[", 0) == 0) << id;
  }
  EXPECT_GT(rows, 0);
  EXPECT_EQ(rows, shift);  // one of each per configuration and dtype
  const auto report = pv::json::parse(slurp(d + "/builtin-scaled-rope.json"));
  const pv::json* law = report.find("options")->find("law");
  ASSERT_TRUE(law && law->type() == pv::json::kind::array) << slurp(d + "/builtin-scaled-rope.json").substr(0, 400);
  EXPECT_EQ(law->size(), 2u);
  r = check("--impl " + builtin("scaled_rope") + " --law rope.rows --law rope.rowz --cases 2 --out " + d + "/typo");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_HAS(r.out, "has an id starting with 'rope.rowz'");
}

TEST(CheckList, ListsTheLawsARunWouldRunAndWritesNothing) {
  const std::string d = fresh("list");
  auto full = check("--impl " + builtin("scaled_rope") + " --cases 2 --out " + d + "/run");
  ASSERT_EQ(full.code, 0) << full.out;
  const auto ids = law_ids(d + "/run/builtin-scaled-rope.json");
  auto r = pv::test::run_posverify("check --impl " + builtin("scaled_rope") + " --list --out " + d + "/list");
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.back(), '\n');  // every id ends its line
  EXPECT_EQ(lines(r.out), ids);
  EXPECT_FALSE(std::filesystem::exists(d + "/list")) << "--list wrote " << d << "/list";
  // --law narrows the list; the shards of --shard K/2 split it
  r = check("--impl " + builtin("scaled_rope") + " --list --law rope.rows");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_FALSE(lines(r.out).empty());
  for (const auto& id : lines(r.out)) EXPECT_EQ(id.rfind("rope.rows[", 0), 0u) << id;
  std::vector<std::string> joined;
  for (const char* shard : {"1/2", "2/2"}) {
    r = check("--impl " + builtin("scaled_rope") + " --list --shard " + shard);
    ASSERT_EQ(r.code, 0) << r.out;
    const auto part = lines(r.out);
    EXPECT_FALSE(part.empty()) << shard;
    joined.insert(joined.end(), part.begin(), part.end());
  }
  std::sort(joined.begin(), joined.end());
  auto sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(joined, sorted);
  r = check("--mutation " + mutant("rope_sine_sign") + " --list");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_HAS(r.out, "--list: not with --mutation");
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

}  // namespace blackbox_hostile_options_test
