// Running check at CI scale (docs/scaling.md): shards merged give the single
// run's report byte for byte (but the time and memory measured per shape), bad shard values and mismatched shards are
// refused naming the problem, JUnit XML parses and carries the failures, and
// the progress line shows on a terminal only.
#include "core/json.h"
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sched.h>
#include <string>

namespace blackbox_scale_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::plugin_test::out_dir;
using pv::plugin_test::plugin_map;
using pv::plugin_test::slurp;
using pv::test::run_posverify;
using pv::test::run_posverify_in;

std::string builtin(const std::string& n) { return plugin_map(POSVERIFY_BUILTIN_PLUGINS).at(n); }
std::string mutant(const std::string& n) { return plugin_map(POSVERIFY_MUTANT_PLUGINS).at(n); }
std::string panel(const std::string& n) { return plugin_map(POSVERIFY_PANEL_PLUGINS).at(n); }

// The children run unsharded unless a test shards them (a test binary run
// under GoogleTest's sharding must not pass it on).
const std::string unsharded = "unset GTEST_SHARD_INDEX GTEST_TOTAL_SHARDS; ";

std::string count_of(const std::string& json, const std::string& key) {
  std::size_t n = 0;
  for (std::size_t i = json.find(key); i != std::string::npos; i = json.find(key, i + 1)) ++n;
  return std::to_string(n);
}

struct ShardCase {
  const char* name;    // test name
  const char* plugin;  // builtin:NAME or mutant:NAME
  const char* file;    // the report's file name (without .json/.md)
  int code;            // the single run's exit code
};

/// A report without what each run measures for itself: the time and peak
/// memory of the attention.shapes calls (JSON "seconds", "peak_rss_kib") and
/// the Markdown section that shows them. Everything else is identical.
std::string without_measurements(std::string s) {
  static const std::regex measured("\"(seconds|peak_rss_kib)\": [-+.0-9eE]+");
  s = std::regex_replace(s, measured, "\"$1\": measured");
  const auto a = s.find("\n## Shapes"), b = s.find("\nTolerance rules", a == std::string::npos ? 0 : a);
  if (a != std::string::npos && b != std::string::npos) s.erase(a, b - a);
  return s;
}

/// The library of a case: builtin:NAME or mutant:NAME.
std::string library_of(const ShardCase& c) {
  const std::string p = c.plugin;
  return p.rfind("builtin:", 0) == 0 ? builtin(p.substr(8)) : mutant(p.substr(7));
}

class CheckShards : public ::testing::TestWithParam<ShardCase> {};

TEST_P(CheckShards, MergedShardsEqualTheSingleRun) {
  const ShardCase c = GetParam();
  const std::string lib = library_of(c);
  const std::string base = out_dir(std::string("shards-") + c.name);
  const std::string opts = "check --impl " + lib + " --cases 8 --seed 5";
  auto single = run_posverify_in(unsharded, opts + " --out " + base + "/single");
  ASSERT_EQ(single.code, c.code) << single.out;
  const std::string want_json = slurp(base + "/single/" + c.file + ".json");
  ASSERT_FALSE(want_json.empty());
  std::string shards;
  std::size_t laws_in_shards = 0;
  for (int k = 1; k <= 3; ++k) {
    const std::string dir = base + "/s" + std::to_string(k);
    auto r = run_posverify_in(unsharded, opts + " --shard " + std::to_string(k) + "/3 --out " + dir);
    EXPECT_TRUE(r.code == 0 || r.code == 1) << r.out;
    const std::string j = slurp(dir + "/" + c.file + ".json");
    EXPECT_NE(j.find("\"shard\""), std::string::npos);
    const std::size_t laws = std::stoul(count_of(j, "\"base_id\""));
    EXPECT_GT(laws, 0u) << "shard " << k << " ran no law";
    laws_in_shards += laws;
    shards += " " + dir + "/" + c.file + ".json";
  }
  EXPECT_EQ(std::to_string(laws_in_shards), count_of(want_json, "\"base_id\""));
  // merged in any order of the arguments
  auto m = run_posverify("merge " + base + "/merged" + shards);
  EXPECT_EQ(m.code, c.code) << m.out;
  EXPECT_EQ(without_measurements(slurp(base + "/merged/" + c.file + ".json")), without_measurements(want_json));
  EXPECT_EQ(without_measurements(slurp(base + "/merged/" + c.file + ".md")),
            without_measurements(slurp(base + "/single/" + c.file + ".md")));
  // GoogleTest's variables pick the same shard as the flag
  auto e = run_posverify_in("GTEST_SHARD_INDEX=1 GTEST_TOTAL_SHARDS=3 ", opts + " --out " + base + "/env");
  EXPECT_TRUE(e.code == 0 || e.code == 1) << e.out;
  EXPECT_EQ(without_measurements(slurp(base + "/env/" + c.file + ".json")),
            without_measurements(slurp(base + "/s2/" + c.file + ".json")));
}

INSTANTIATE_TEST_SUITE_P(
    Plugins, CheckShards,
    ::testing::Values(ShardCase{"PlainFloat", "builtin:plain_float", "builtin-plain-float", 0},
                      // failing RoPE laws: the diagnosis and the sweep stay with their configuration
                      ShardCase{"PairsSwapped", "mutant:rope_pairs_swapped", "rope_pairs_swapped", 1}),
    [](const auto& info) { return std::string(info.param.name); });

// --jobs N: the run split into N shards run side by side by workers and
// joined as merge joins them (cli/check_jobs.h): the single run's report,
// console lines and exit code; the whole run's files (JUnit, the saved
// baseline) and its baseline comparison are the parent's; the workers'
// folder is removed.
class CheckJobs : public ::testing::TestWithParam<ShardCase> {};

/// The console lines but the first ("checking ...", which names the workers)
/// and the last ("wrote ...": the folder, the time and the counts).
std::string law_lines(const std::string& out) {
  const auto a = out.find('\n'), b = out.rfind("\nwrote ");
  return a == std::string::npos || b == std::string::npos || b < a ? out : out.substr(a, b - a);
}

TEST_P(CheckJobs, WorkersGiveTheSingleRunsReport) {
  const ShardCase c = GetParam();
  const std::string lib = library_of(c);
  const std::string base = out_dir(std::string("jobs-") + c.name);
  const std::string opts = "check --impl " + lib + " --cases 8 --seed 5";
  auto single = run_posverify_in(unsharded, opts + " --jobs 1 --out " + base + "/single");
  ASSERT_EQ(single.code, c.code) << single.out;
  EXPECT_EQ(single.out.find(" workers"), std::string::npos) << "one process: " << single.out;
  const std::string want_json = slurp(base + "/single/" + c.file + ".json");
  ASSERT_FALSE(want_json.empty());
  ASSERT_EQ(std::system(("mkdir -p " + base + "/tmp").c_str()), 0);
  auto jobs = run_posverify_in(unsharded + "TMPDIR=" + base + "/tmp ",
                               opts + " --jobs 3 --out " + base + "/jobs --junit " + base + "/junit.xml --save-baseline " +
                                   base + "/saved.json");
  EXPECT_EQ(jobs.code, c.code) << jobs.out;
  EXPECT_NE(jobs.out.find(", 3 workers\n"), std::string::npos) << jobs.out;
  EXPECT_EQ(law_lines(jobs.out), law_lines(single.out));
  const std::string got_json = slurp(base + "/jobs/" + c.file + ".json");
  EXPECT_EQ(without_measurements(got_json), without_measurements(want_json));
  EXPECT_EQ(without_measurements(slurp(base + "/jobs/" + c.file + ".md")),
            without_measurements(slurp(base + "/single/" + c.file + ".md")));
  EXPECT_EQ(slurp(base + "/saved.json"), got_json) << "the saved baseline is the whole run's report";
  EXPECT_NE(slurp(base + "/junit.xml").find("<testsuite"), std::string::npos);
  EXPECT_EQ(slurp(base + "/jobs/" + c.file + ".html").empty(), false);
  auto left = run_posverify_in("", "--version; ls -A " + base + "/tmp | wc -l");
  EXPECT_NE(left.out.find("\n0\n"), std::string::npos) << "the workers' folder is removed: " << left.out;
  // the default for a shared library: every core, at most one worker per unit
  auto dflt = run_posverify_in(unsharded + "unset POSVERIFY_JOBS; ", opts + " --out " + base + "/default");
  EXPECT_EQ(dflt.code, c.code) << dflt.out;
  cpu_set_t cores;
  CPU_ZERO(&cores);
  ASSERT_EQ(::sched_getaffinity(0, sizeof cores, &cores), 0);
  EXPECT_EQ(dflt.out.find(" workers\n") != std::string::npos, CPU_COUNT(&cores) > 1) << dflt.out;
  EXPECT_EQ(without_measurements(slurp(base + "/default/" + c.file + ".json")), without_measurements(want_json));
  // the default from the environment, and a baseline compared by the whole run
  auto env = run_posverify_in(unsharded + "POSVERIFY_JOBS=2 ", opts + " --out " + base + "/env --baseline " + base +
                                                                   "/single/" + c.file + ".json");
  EXPECT_EQ(env.code, c.code) << env.out;
  EXPECT_NE(env.out.find(", 2 workers\n"), std::string::npos) << env.out;
  EXPECT_EQ(env.out.find("REGRESSION"), std::string::npos) << env.out;
  EXPECT_EQ(without_measurements(slurp(base + "/env/" + c.file + ".json")), without_measurements(want_json));
}

INSTANTIATE_TEST_SUITE_P(
    Plugins, CheckJobs,
    ::testing::Values(ShardCase{"PlainFloat", "builtin:plain_float", "builtin-plain-float", 0},
                      ShardCase{"PairsSwapped", "mutant:rope_pairs_swapped", "rope_pairs_swapped", 1},
                      // declares float16: the report's options.accuracy is the class the workers ran
                      // under ("dtype" in the parent's report before: it never resolved it)
                      ShardCase{"DeclaredAccuracy", "mutant:panel_attn_scale_by_dv", "panel_attn_scale_by_dv", 1}),
    [](const auto& info) { return std::string(info.param.name); });

// --mutation and --panel with --jobs: a worker per mutant, and per panel
// member, position range and run of 5 seeds (cli/check_jobs.h, run_units),
// joined in the order given: the single process's record, lines and exit
// code. --law is judged against all the libraries by the parent, not by each
// worker against its own (rope.reference: not a law of flash_float).
TEST(CheckJobsLibraries, MutationAndPanelRecordsAsOneProcessWritesThem) {
  const std::string base = out_dir("jobs-libraries");
  auto lines = [](const std::string& out, const std::string& dir) {  // the console, its folder named alike
    std::string s = out;
    for (std::size_t at; (at = s.find(dir)) != std::string::npos;) s.replace(at, dir.size(), "DIR");
    return s;
  };
  // a survivor (a correct plugin among the mutants): exit 1, in both
  const std::string mutants = " " + mutant("rope_sine_sign") + " " + builtin("plain_double") + " " + mutant("attn_no_scale");
  const std::string mlaw = " --law rope.reference --law attention.reference";
  auto one = run_posverify_in(unsharded, "check --mutation" + mutants + " --cases 6" + mlaw + " --jobs 1 --out " + base + "/m1");
  auto two = run_posverify_in(unsharded, "check --mutation" + mutants + " --cases 6" + mlaw + " --jobs 2 --out " + base + "/m2");
  EXPECT_EQ(one.code, 1) << one.out;
  EXPECT_EQ(two.code, 1) << two.out;
  EXPECT_NE(two.out.find("SURVIVED"), std::string::npos) << two.out;
  EXPECT_EQ(lines(two.out, base + "/m2"), lines(one.out, base + "/m1"));
  EXPECT_EQ(without_measurements(slurp(base + "/m2/mutation.json")), without_measurements(slurp(base + "/m1/mutation.json")));
  // 7 seeds: parts of 5 and 2 seeds at each of two position ranges (one for a
  // member without positions), joined
  const std::string members = " " + panel("rope_ladder_f32") + " " + builtin("flash_float");
  {
    const std::string law = " --law rope.reference --law attention.convex_hull";
    const std::string opts = "check --panel" + members + " --seeds 7 --cases 4" + law;
    auto p1 = run_posverify_in(unsharded, opts + " --jobs 1 --out " + base + "/p1");
    auto p3 = run_posverify_in(unsharded, opts + " --jobs 3 --out " + base + "/p3");
    EXPECT_EQ(p1.code, 0) << p1.out;
    EXPECT_EQ(p3.code, 0) << p3.out;
    EXPECT_EQ(lines(p3.out, base + "/p3"), lines(p1.out, base + "/p1"));
    const std::string want = slurp(base + "/p1/panel.json");
    EXPECT_NE(want.find("\"runs\": 56"), std::string::npos) << "7 seeds, 2 ranges, 4 configurations: " << want;
    // flash_float has neither rope() nor sinusoid(): one range, its second would repeat the cases
    EXPECT_NE(want.find("\"runs\": 7"), std::string::npos) << "7 seeds, 1 range: " << want;
    EXPECT_EQ(want.find("\"runs\": 14"), std::string::npos) << want;
    EXPECT_NE(want.find("\"max_positions\": [8192]"), std::string::npos) << want;
    EXPECT_EQ(slurp(base + "/p3/panel.json"), want) << law;
    EXPECT_EQ(slurp(base + "/p3/panel.md"), slurp(base + "/p1/panel.md")) << law;
  }
  // a member that cannot be loaded: exit 2 naming it, as one process does
  for (const char* jobs : {"1", "2"}) {
    auto r = run_posverify_in(unsharded, "check --panel" + members + " /nonexistent/libx.so --seeds 1 --cases 2 --jobs " +
                                             std::string(jobs) + " --out " + base + "/bad");
    EXPECT_EQ(r.code, 2) << jobs << ": " << r.out;
    EXPECT_NE(r.out.find("/nonexistent/libx.so"), std::string::npos) << jobs << ": " << r.out;
  }
}

TEST(CheckJobsUsage, BadValuesExit2NamingThem) {
  const std::string lib = builtin("plain_double");
  for (const char* v : {"0", "x", "257", "2.5"}) {
    auto r = run_posverify_in(unsharded, "check --impl " + lib + " --cases 2 --out " + out_dir("jobs-bad") + " --jobs " + v);
    EXPECT_EQ(r.code, 2) << v << ": " << r.out;
    EXPECT_NE(r.out.find(std::string("--jobs: ")), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(v), std::string::npos) << r.out;
  }
  auto r = run_posverify_in(unsharded + "POSVERIFY_JOBS=many ", "check --impl " + lib + " --cases 2 --out " + out_dir("jobs-bad"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("POSVERIFY_JOBS: expected a whole number, got 'many'"), std::string::npos) << r.out;
  // auto: the cores posverify may run on, at most one worker per unit
  r = run_posverify_in(unsharded, "check --impl " + lib + " --cases 2 --out " + out_dir("jobs-auto") + " --jobs auto");
  EXPECT_EQ(r.code, 0) << r.out;
}

TEST(CheckShardUsage, BadShardValuesExit2NamingThem) {
  const std::string lib = builtin("plain_float");
  for (const char* v : {"3/2", "0/0", "x/2", "0/3", "1/", "2"}) {
    auto r = run_posverify_in(unsharded, "check --impl " + lib + " --shard " + v);
    EXPECT_EQ(r.code, 2) << v << ": " << r.out;
    EXPECT_NE(r.out.find(std::string("--shard: '") + v + "'"), std::string::npos) << r.out;
  }
  auto r = run_posverify_in("GTEST_SHARD_INDEX=3 GTEST_TOTAL_SHARDS=3 ", "check --impl " + lib);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("GTEST_SHARD_INDEX: '3'"), std::string::npos) << r.out;
  r = run_posverify_in("unset GTEST_SHARD_INDEX; GTEST_TOTAL_SHARDS=x ", "check --impl " + lib);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("GTEST_TOTAL_SHARDS"), std::string::npos) << r.out;
  r = run_posverify_in(unsharded, "check --impl " + lib + " --shard 1/2 --save-baseline /tmp/x.json");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--save-baseline"), std::string::npos) << r.out;
}

// --law rope asks for the flux.* laws too (their ids before a rename began
// with rope.flux., laws/aliases.h): the shards of such a run hold them, and
// merge took them for laws the run never asked for ("the report contradicts
// itself", exit 2). --jobs met it first: its workers are such shards.
TEST(CheckShardMerge, KeepsTheLawsARetiredPrefixAsksFor) {
  const std::string lib = builtin("plain_float");
  const std::string base = out_dir("shards-retired-prefix");
  const std::string opts = "check --impl " + lib + " --cases 4 --law rope --rope-config adjacent:10000:8,12,12";
  auto single = run_posverify_in(unsharded, opts + " --jobs 1 --out " + base + "/single");
  ASSERT_EQ(single.code, 0) << single.out;
  const std::string want = slurp(base + "/single/builtin-plain-float.json");
  ASSERT_NE(want.find("\"flux.text_identity["), std::string::npos) << "--law rope runs the flux.* laws";
  std::string shards;
  for (int k = 1; k <= 2; ++k) {
    auto r = run_posverify_in(unsharded, opts + " --shard " + std::to_string(k) + "/2 --out " + base + "/s" + std::to_string(k));
    ASSERT_EQ(r.code, 0) << r.out;
    shards += " " + base + "/s" + std::to_string(k) + "/builtin-plain-float.json";
  }
  auto m = run_posverify("merge " + base + "/merged" + shards);
  EXPECT_EQ(m.code, 0) << m.out;
  EXPECT_EQ(without_measurements(slurp(base + "/merged/builtin-plain-float.json")), without_measurements(want));
  // a law no prefix asks for is still refused
  std::string bad = slurp(base + "/s1/builtin-plain-float.json");
  const auto at = bad.find("\"law\": \"rope\"");
  ASSERT_NE(at, std::string::npos) << bad.substr(0, 400);
  bad.replace(at, 14, "\"law\": \"rope.r\"");
  ASSERT_EQ(std::system(("mkdir -p " + base + "/bad").c_str()), 0);
  std::FILE* f = std::fopen((base + "/bad/s1.json").c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs(bad.c_str(), f);
  std::fclose(f);
  m = run_posverify("merge " + base + "/bad/m " + base + "/bad/s1.json");
  EXPECT_EQ(m.code, 2) << m.out;
  EXPECT_NE(m.out.find("not a law of options.law \"rope.r\""), std::string::npos) << m.out;
}

TEST(CheckShardMerge, RefusesShardsThatAreNotOneRun) {
  const std::string lib = builtin("plain_double");
  const std::string base = out_dir("shards-refused");
  auto shard = [&](int k, const std::string& seed) {
    const std::string dir = base + "/s" + std::to_string(k) + "-" + seed;
    auto r = run_posverify_in(unsharded, "check --impl " + lib + " --cases 4 --seed " + seed + " --shard " +
                                             std::to_string(k) + "/3 --out " + dir);
    EXPECT_TRUE(r.code == 0) << r.out;
    return dir + "/builtin-plain-double.json";
  };
  const std::string s1 = shard(1, "1"), s2 = shard(2, "1"), s3 = shard(3, "1"), s3b = shard(3, "2");
  auto r = run_posverify("merge " + base + "/m " + s1 + " " + s2);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("missing shard(s) 3/3"), std::string::npos) << r.out;
  r = run_posverify("merge " + base + "/m " + s1 + " " + s2 + " " + s2 + " " + s3);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("given twice"), std::string::npos) << r.out;
  r = run_posverify("merge " + base + "/m " + s1 + " " + s2 + " " + s3b);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("\"seed\" differs"), std::string::npos) << r.out;
  EXPECT_EQ(slurp(base + "/m/builtin-plain-double.json"), "") << "a refused merge writes nothing";
  r = run_posverify("merge --out " + base + "/m.json " + s1 + " " + s2 + " " + s3);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(slurp(base + "/m.md").find("# posverify check"), std::string::npos);
}

/// Check report `text` (a shard) with law `i` edited as a careful forger
/// would: its fields `set` replaced (or, `drop`, the law and its unit in
/// shard.entries.laws removed), and the summary recounted to match.
std::string forged(const std::string& text, std::size_t i, const std::vector<std::pair<std::string, pv::json>>& set,
                   bool drop = false) {
  const pv::json r = pv::json::parse(text);
  const auto& ls = r.find("laws")->items();
  const auto& us = r.find("shard")->find("entries")->find("laws")->items();
  pv::json laws = pv::json::array(), units = pv::json::array(), sum = pv::json::object();
  std::map<std::string, long> count;
  for (std::size_t k = 0; k < ls.size(); ++k) {
    if (drop && k == i) continue;
    pv::json law = ls[k].second;
    if (k == i)
      for (const auto& [key, v] : set) law.set(key, v);
    ++count[law.find("verdict")->as_string()];
    laws.push(law);
    units.push(us[k].second);
  }
  for (const auto& [v, n] : count) sum.set(v, pv::json::integer(n));
  pv::json entries = *r.find("shard")->find("entries"), shard = *r.find("shard"), out = pv::json::object();
  entries.set("laws", units);
  shard.set("entries", entries);
  for (const auto& [key, v] : r.items()) out.set(key, key == "laws" ? laws : key == "summary" ? sum : key == "shard" ? shard : v);
  return out.dump();
}

/// The index of the first law of check report `text` with verdict `v`.
std::size_t first_law(const std::string& text, const std::string& v) {
  const auto& ls = pv::json::parse(text).find("laws")->items();
  for (std::size_t i = 0; i < ls.size(); ++i)
    if (ls[i].second.find("verdict")->as_string() == v) return i;
  ADD_FAILURE() << "no law " << v;
  return 0;
}

/// Two shards of a mutant whose attention laws fail (one unit per law and
/// dtype), with a copy of shard 1 to tamper with: returns (shard 1 copy, shard 2).
std::pair<std::string, std::string> tamper_shards(const std::string& base) {
  for (int k = 1; k <= 2; ++k) {
    auto r = run_posverify_in(unsharded, "check --impl " + mutant("attn_no_scale") + " --cases 2 --seed 5 --shard " +
                                             std::to_string(k) + "/2 --out " + base + "/s" + std::to_string(k));
    EXPECT_EQ(r.code, 1) << r.out;
  }
  return {base + "/t1.json", base + "/s2/attn_no_scale.json"};
}

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

/// merge of (tampered shard 1, shard 2): exit 2 naming `message`, nothing written.
void expect_refused(const std::string& base, const std::pair<std::string, std::string>& s, const std::string& message) {
  std::remove((base + "/m.json").c_str());
  auto r = run_posverify("merge " + base + "/m.json " + s.first + " " + s.second);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(message), std::string::npos) << r.out;
  EXPECT_EQ(slurp(base + "/m.json"), "") << "a refused merge writes nothing";
}

// A dtype name merge does not know was skipped: the merged report then said
// the 16-bit laws were "not declared, not sent" whatever the shard said.
TEST(CheckShardMerge, RefusesADtypeItDoesNotKnow) {
  const std::string base = pv::plugin_test::fresh_out_dir("shards-dtype");
  const auto s = tamper_shards(base);
  std::string t = slurp(base + "/s1/attn_no_scale.json");
  const auto list = t.find("\"dtypes\": [");
  ASSERT_NE(list, std::string::npos) << t;
  const auto f64 = t.find("\"float64\"", list);
  ASSERT_NE(f64, std::string::npos) << t;
  write(s.first, std::string(t).replace(f64, 9, "\"float46\""));
  expect_refused(base, s, "implementation.dtypes: 'float46' is not a dtype listed once");
  write(s.first, std::string(t).replace(f64, 9, "\"float32\""));
  expect_refused(base, s, "implementation.dtypes: 'float32' is not a dtype listed once");
  write(s.first, std::string(t).replace(f64, 9, "64"));
  expect_refused(base, s, "implementation.dtypes: a ");
}

TEST(CheckShardMerge, RefusesAShardThatContradictsItself) {
  const std::string base = pv::plugin_test::fresh_out_dir("shards-contradict");
  const auto s = tamper_shards(base);
  const std::string s1 = slurp(base + "/s1/attn_no_scale.json");
  ASSERT_FALSE(s1.empty());
  const std::size_t f = first_law(s1, "failed"), p = first_law(s1, "passed");
  const std::string at = s.first + ": laws[" + std::to_string(f) + "] (attention.reference[float32]).";
  // untouched, the shards merge (the mutant fails: exit 1)
  write(s.first, s1);
  auto r = run_posverify("merge " + base + "/m.json " + s.first + " " + s.second);
  EXPECT_EQ(r.code, 1) << r.out;
  // the failure relabelled "passed" in place (sed): its counterexample is still there
  std::string t = s1;
  const std::string failed = "\"verdict\": \"failed\"";
  const auto v = t.find(failed);
  ASSERT_NE(v, std::string::npos);
  write(s.first, t.replace(v, failed.size(), "\"verdict\": \"passed\""));
  expect_refused(base, s, at + "counterexample: set under verdict \"passed\" (only a failed law has one)");
  // ... with its counterexample, replay and finding cleared and the summary
  // recounted: its worst case still exceeds the tolerance
  const pv::json null;
  write(s.first, forged(s1, f, {{"verdict", pv::json::string("passed")}, {"counterexample", null}, {"replay", null},
                               {"finding", null}, {"diagnosis", null}}));
  expect_refused(base, s, at + "worst.error: ");
  expect_refused(base, s, " under verdict \"passed\" (a case beyond its tolerance fails the law): the report contradicts itself");
  // the converse: a pass relabelled "failed" has no finding
  write(s.first, forged(s1, p, {{"verdict", pv::json::string("failed")}}));
  expect_refused(base, s, "laws[" + std::to_string(p) + "] (");
  expect_refused(base, s, ".finding: null under verdict \"failed\" (a failure says what went wrong)");
  // the summary alone edited: it no longer counts the laws listed
  t = s1;
  const std::string two = "\"failed\": 2";
  const auto c = t.find(two);
  ASSERT_NE(c, std::string::npos);
  write(s.first, t.replace(c, two.size(), "\"failed\": 0"));
  expect_refused(base, s, s.first + ": summary.failed: 0, but 2 laws listed are failed: the report contradicts itself");
}

TEST(CheckShardMerge, RefusesAUnitWithoutItsLaw) {
  const std::string base = pv::plugin_test::fresh_out_dir("shards-removed");
  const auto s = tamper_shards(base);
  const std::string s1 = slurp(base + "/s1/attn_no_scale.json");
  ASSERT_FALSE(s1.empty());
  const std::size_t f = first_law(s1, "failed");
  const long unit = long(pv::json::parse(s1).find("shard")->find("entries")->find("laws")->items()[f].second.as_integer());
  // the failed law removed with its unit's entry and the summary recounted
  write(s.first, forged(s1, f, {}, /*drop=*/true));
  expect_refused(base, s, s.first + ": shard 1/2: unit " + std::to_string(unit) +
                              " has no record in \"laws\" (shard.entries): a shard holds every record of its units");
  // the law alone removed: the summary still counts it
  pv::json r = pv::json::parse(s1), laws = pv::json::array();
  for (std::size_t k = 0; k < r.find("laws")->size(); ++k)
    if (k != f) laws.push(r.find("laws")->items()[k].second);
  r.set("laws", laws);
  write(s.first, r.dump());
  expect_refused(base, s, s.first + ": summary.failed: 2, but 1 laws listed are failed");
  // ... and the summary recounted: the shard record still lists its unit
  std::map<std::string, long> count;
  for (const auto& kv : laws.items()) ++count[kv.second.find("verdict")->as_string()];
  pv::json sum = pv::json::object();
  for (const auto& [v, n] : count) sum.set(v, pv::json::integer(n));
  r.set("summary", sum);
  write(s.first, r.dump());
  expect_refused(base, s, s.first + ": the shard record lists ");
}

/// Parses a JUnit file with Python's XML parser (/usr/bin/python3) and
/// prints "tests failures skipped" and the text of the first failure.
std::string junit_summary(const std::string& file) {
  const std::string py =
      "import sys, xml.etree.ElementTree as E\n"
      "r = E.parse(sys.argv[1]).getroot()\n"
      "c = r.findall('.//testcase'); f = r.findall('.//failure'); s = r.findall('.//skipped')\n"
      "print(len(c), len(f), len(s)); print(f[0].text if f else '')\n";
  FILE* p = ::popen(("/usr/bin/python3 -c \"$(cat <<'PYEOF'\n" + py + "PYEOF\n)\" " + file + " 2>&1").c_str(), "r");
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

TEST(CheckJunit, OneCasePerLawAndTheFailureWithItsReplay) {
  const std::string base = out_dir("junit");
  auto r = run_posverify_in(unsharded, "check --impl " + builtin("plain_double") + " --cases 4 --out " + base +
                                           " --junit " + base + "/pass.xml");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string json = slurp(base + "/builtin-plain-double.json");
  std::string s = junit_summary(base + "/pass.xml");
  EXPECT_EQ(s.substr(0, s.find(' ')), count_of(json, "\"base_id\"")) << s;
  EXPECT_EQ(s.find(" 0 "), s.find(' ')) << "no failure expected: " << s;
  r = run_posverify_in(unsharded, "check --impl " + mutant("attn_nan") + " --cases 4 --out " + base + " --junit " +
                                      base + "/fail.xml");
  ASSERT_EQ(r.code, 1) << r.out;
  s = junit_summary(base + "/fail.xml");
  EXPECT_EQ(s.find(" 0 "), std::string::npos) << "a <failure> expected: " << s;
  EXPECT_NE(s.find("replay: "), std::string::npos) << s;
  EXPECT_NE(s.find("--law 'attention."), std::string::npos) << s;
}

TEST(CheckProgress, OnATerminalOnly) {
  const std::string base = out_dir("progress");
  const std::string cmd = "check --impl " + pv::test::posverify_bin().substr(0, 0) + builtin("plain_double") +
                          " --cases 4 --out " + base;
  auto quiet = run_posverify_in(unsharded, cmd);  // stderr is a pipe
  ASSERT_EQ(quiet.code, 0) << quiet.out;
  EXPECT_EQ(quiet.out.find("laws and RoPE configurations"), std::string::npos) << quiet.out;
  // a pseudo-terminal (script(1)): the line appears with the count and the time left
  const std::string tty = unsharded + "script -qec '" + pv::test::posverify_bin() + " " + cmd + "' /dev/null";
  FILE* p = ::popen((tty + " 2>&1").c_str(), "r");
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  EXPECT_EQ(::pclose(p), 0) << out;
  EXPECT_NE(out.find("check builtin-plain-double: 0/"), std::string::npos) << out;
  EXPECT_NE(out.find(" laws and RoPE configurations, about "), std::string::npos) << out;
  EXPECT_NE(out.find(" left"), std::string::npos) << out;
}

}  // namespace

}  // namespace blackbox_scale_test
