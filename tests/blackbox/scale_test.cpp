// Running check at CI scale (docs/scaling.md): shards merged give the single
// run's report byte for byte (but the time and memory measured per shape), bad shard values and mismatched shards are
// refused naming the problem, JUnit XML parses and carries the failures, and
// the progress line shows on a terminal only.
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace {

using pv::plugin_test::out_dir;
using pv::plugin_test::plugin_map;
using pv::plugin_test::slurp;
using pv::test::run_posverify;
using pv::test::run_posverify_in;

std::string builtin(const std::string& n) { return plugin_map(POSVERIFY_BUILTIN_PLUGINS).at(n); }
std::string mutant(const std::string& n) { return plugin_map(POSVERIFY_MUTANT_PLUGINS).at(n); }

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

class CheckShards : public ::testing::TestWithParam<ShardCase> {};

TEST_P(CheckShards, MergedShardsEqualTheSingleRun) {
  const ShardCase c = GetParam();
  const std::string p = c.plugin;
  const std::string lib = p.rfind("builtin:", 0) == 0 ? builtin(p.substr(8)) : mutant(p.substr(7));
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
