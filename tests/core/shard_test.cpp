// Shards of `verify` (docs/scaling.md): the shard values of --shard and of
// GoogleTest's variables, and shards 1/3, 2/3, 3/3 merged into the single
// run's claims.json and claims.md byte for byte, with JUnit XML beside them.
#include "reports/junit.h"
#include "core/shard.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>

namespace core_shard_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::test::run_posverify_in;

TEST(ShardSpec, FlagAndEnvironment) {
  auto s = pv::shard::parse_flag("2/3");
  EXPECT_EQ(s.index, 1);
  EXPECT_EQ(s.total, 3);
  EXPECT_TRUE(s.mine(1) && s.mine(4) && !s.mine(0) && !s.mine(2));
  for (const char* bad : {"3/2", "0/0", "x/2", "0/3", "1/", "/3", "2", "1/3/4", "-1/3", "1/100001"})
    EXPECT_THROW(pv::shard::parse_flag(bad), std::invalid_argument) << bad;
  s = pv::shard::from_env("0", "4");
  EXPECT_EQ(s.index, 0);
  EXPECT_EQ(s.total, 4);
  EXPECT_FALSE(pv::shard::from_env(nullptr, nullptr).sharded());
  try {
    pv::shard::from_env("4", "4");
    ADD_FAILURE() << "index 4 of 4 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("GTEST_SHARD_INDEX: '4'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(pv::shard::from_env("1", nullptr), std::invalid_argument);
  EXPECT_THROW(pv::shard::from_env("0", "0"), std::invalid_argument);
}

TEST(ShardCoverage, AUnitWithoutItsRecordOrWithTwoIsNamed) {
  using pv::shard::coverage;
  using pv::shard::uncovered;
  // shard 2/3 of 8 units owns 1, 4, 7
  EXPECT_EQ(uncovered({1, 4, 4, 7}, 8, 2, 3, coverage::at_least_once), "");
  EXPECT_EQ(uncovered({1, 7}, 8, 2, 3, coverage::at_least_once), "unit 4 has no record");
  EXPECT_EQ(uncovered({}, 8, 2, 3, coverage::any), "");
  EXPECT_EQ(uncovered({1, 4, 7}, 8, 2, 3, coverage::exactly_once), "");
  EXPECT_EQ(uncovered({1, 4, 4, 7}, 8, 2, 3, coverage::exactly_once), "unit 4 has 2 records, a unit has one");
  EXPECT_EQ(uncovered({}, 1, 2, 3, coverage::exactly_once), "");  // a shard may own no unit
  // a claim of 2^62 units is walked only as far as the entries reach
  EXPECT_EQ(uncovered({0, 2}, 1L << 62, 1, 2, coverage::at_least_once), "unit 4 has no record");
  // the last unit of a shard ends the walk: no step past the largest long
  const long top = std::numeric_limits<long>::max();
  EXPECT_EQ(uncovered({0, top - 5}, top, 1, top - 5, coverage::at_least_once), "");
}

TEST(Junit, EscapesMarkupAndControlsAndInvalidUtf8) {
  EXPECT_EQ(pv::junit::escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
  EXPECT_EQ(pv::junit::escape(std::string("x\x01y\x1b", 4)), "x\\x01y\\x1b");
  EXPECT_EQ(pv::junit::escape("\xff"), "\xEF\xBF\xBD");      // invalid UTF-8 -> U+FFFD
  EXPECT_EQ(pv::junit::escape("\xEF\xBF\xBF"), "\xEF\xBF\xBD");  // U+FFFF is not an XML character
  EXPECT_EQ(pv::junit::escape("a\nb", true), "a&#10;b");
  EXPECT_EQ(pv::junit::escape("a\nb"), "a\nb");
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(VerifyShards, MergedShardsEqualTheSingleRun) {
  const std::string base = ::testing::TempDir() + "posverify-verify-shards";
  ::mkdir(base.c_str(), 0755);
  const std::string unsharded = "unset GTEST_SHARD_INDEX GTEST_TOTAL_SHARDS; ";
  const std::string opts = "verify --cases 5 --seed 3";
  auto single = run_posverify_in(unsharded, opts + " --out " + base + "/single --junit " + base + "/single.xml");
  ASSERT_EQ(single.code, 0) << single.out;
  std::string shards;
  for (int k = 1; k <= 3; ++k) {
    const std::string dir = base + "/s" + std::to_string(k);
    auto r = run_posverify_in(unsharded, opts + " --shard " + std::to_string(k) + "/3 --out " + dir);
    EXPECT_EQ(r.code, 0) << r.out;
    shards += " " + dir + "/claims.json";
  }
  auto m = run_posverify_in("", "merge " + base + "/merged" + shards + " --junit " + base + "/merged.xml");
  ASSERT_EQ(m.code, 0) << m.out;
  const std::string want = slurp(base + "/single/claims.json");
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(slurp(base + "/merged/claims.json"), want);
  EXPECT_EQ(slurp(base + "/merged/claims.md"), slurp(base + "/single/claims.md"));
  EXPECT_EQ(slurp(base + "/merged.xml"), slurp(base + "/single.xml"));
  // the JUnit file parses, one test case per claim and property
  std::string py;
  FILE* p = ::popen(("/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; "
                     "print(len(E.parse(sys.argv[1]).getroot().findall(\".//testcase\")))' " +
                     base + "/single.xml 2>&1").c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) py.append(buf, n);
  ::pclose(p);
  std::size_t ids = 0;
  for (std::size_t i = want.find("\n      \"id\": "); i != std::string::npos; i = want.find("\n      \"id\": ", i + 1)) ++ids;
  EXPECT_EQ(py.substr(0, py.find('\n')), std::to_string(ids)) << py;
}

}  // namespace

}  // namespace core_shard_test
