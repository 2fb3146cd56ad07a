// The one verdict type (posverify/verdict.h): every verdict prints the string
// the reports always carried and reads back from it; a string that names no
// verdict is rejected, and a report read back says which file, entry and value.
#include "core/json_read.h"
#include "core/verdict.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace core_verdict_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::verdict;

// The printed names as the committed reports carry them (reports/*.json).
const std::pair<verdict, const char*> printed[] = {
    {verdict::holds, "holds"},
    {verdict::holds_qualified, "holds-qualified"},
    {verdict::fails, "fails"},
    {verdict::not_checkable, "not-checkable"},
    {verdict::passed, "passed"},
    {verdict::failed, "failed"},
    {verdict::insufficient, "insufficient"},
    {verdict::unsupported, "unsupported"},
    {verdict::gave_up, "gave-up"},
    {verdict::error, "error"},
    {verdict::not_reproduced, "not-reproduced"},
    {verdict::not_run, "not-run"},
    {verdict::proved, "proved"},
    {verdict::disproved, "disproved"},
    {verdict::undecided, "undecided"},
};

TEST(Verdict, EveryVerdictRoundTripsThroughItsPrintedName) {
  std::set<std::string> names;
  for (int i = 0; i <= int(verdict::undecided); ++i) {
    const auto v = verdict(i);
    const std::string s = pv::to_string(v);
    EXPECT_NE(s, "?") << i;
    EXPECT_TRUE(names.insert(s).second) << "two verdicts print as " << s;
    EXPECT_EQ(pv::parse_verdict(s), v) << s;
  }
  EXPECT_EQ(names.size(), std::size(printed));
}

TEST(Verdict, TheReportsStringsAreUnchanged) {
  for (const auto& [v, s] : printed) {
    EXPECT_STREQ(pv::to_string(v), s);
    EXPECT_EQ(pv::parse_verdict(s), v) << s;
    std::ostringstream os;
    os << v;
    EXPECT_EQ(os.str(), s);
  }
}

TEST(Verdict, AStringThatNamesNoVerdictIsRejected) {
  for (const char* s : {"", "pass", "FAILED", "Passed", " passed", "passed ", "gave_up", "not_run", "holds_qualified",
                        "not_checkable", "proved (exhaustive, exact)", "proved broken", "?", "ruled out"})
    EXPECT_FALSE(pv::parse_verdict(s).has_value()) << '"' << s << '"';
}

TEST(Verdict, AProofsVerdictCarriesHowItWasReached) {
  EXPECT_EQ(pv::qualified(verdict::proved, "exhaustive, exact"), "proved (exhaustive, exact)");
  EXPECT_EQ(pv::qualified(verdict::disproved, ""), "disproved");
  EXPECT_EQ(pv::leading_verdict("proved (exhaustive, exact)"), verdict::proved);
  EXPECT_EQ(pv::leading_verdict("undecided (grid over budget)"), verdict::undecided);
  EXPECT_EQ(pv::leading_verdict("disproved"), verdict::disproved);
  EXPECT_FALSE(pv::leading_verdict("disprovedly (x)").has_value());
  EXPECT_FALSE(pv::leading_verdict("(proved)").has_value());
  EXPECT_FALSE(pv::leading_verdict("").has_value());
}

std::string error_of(const pv::json& o) {
  try {
    pv::json_read::verdict_of(o, "r.json: laws[2]");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Verdict, ReadingAReportBackNamesTheFileTheFieldAndTheValue) {
  pv::json o = pv::json::object();
  EXPECT_EQ(error_of(o), "r.json: laws[2].verdict: missing");
  o.set("verdict", pv::json::integer(1));
  EXPECT_EQ(error_of(o), "r.json: laws[2].verdict: expected a string");
  o.set("verdict", pv::json::string("pased"));
  EXPECT_EQ(error_of(o), "r.json: laws[2].verdict: \"pased\" names no verdict");
  o.set("verdict", pv::json::string("insufficient"));
  EXPECT_EQ(pv::json_read::verdict_of(o, "r.json: laws[2]"), verdict::insufficient);
}

// posverify merge refuses a shard whose verdict names none: exit 2, the file,
// entry and value named, nothing written.
TEST(Verdict, MergeRefusesAShardWithAnUnknownVerdict) {
  char dir[] = "/tmp/pv_verdict_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string d = dir;
  const std::pair<const char*, const char*> cases[] = {
      {"{\"laws\": [{\"id\": \"a\", \"verdict\": \"passed\"}, {\"id\": \"b\", \"verdict\": \"fail\"}]}",
       "bad.json: laws[1].verdict: \"fail\" names no verdict"},
      {"{\"claims\": [{\"id\": \"c\", \"verdict\": \"holds_qualified\"}], \"properties\": []}",
       "bad.json: claims[0].verdict: \"holds_qualified\" names no verdict"},
  };
  for (const auto& [text, want] : cases) {
    std::ofstream(d + "/bad.json") << text;
    const auto r = pv::test::run_posverify("merge " + d + "/out " + d + "/bad.json");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
    EXPECT_FALSE(std::ifstream(d + "/out/claims.json").good());
    EXPECT_FALSE(std::ifstream(d + "/out/check.json").good());
  }
  std::remove((d + "/bad.json").c_str());
  ::rmdir((d + "/out").c_str());
  ::rmdir(dir);
}

}  // namespace

}  // namespace core_verdict_test
