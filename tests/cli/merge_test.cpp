// posverify merge reads every record of every shard back with the record's
// field table before it joins anything: a bad field stops it with exit 2,
// the file, the entry and the field named, and nothing written.
#include "core/json.h"
#include "support/run_posverify.h"

#include "support/slurp.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace cli_merge_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::test::slurp;

using pv::json;

/// `report` with field `key` of entry i of `list` set to v.
json with_field(const json& report, const char* list, std::size_t i, const char* key, json v) {
  json items = json::array();
  const json& old = *report.find(list);
  for (std::size_t k = 0; k < old.size(); ++k) {
    json e = old.items()[k].second;
    if (k == i) e.set(key, v);
    items.push(e);
  }
  json out = report;
  out.set(list, items);
  return out;
}

struct merge_case {
  json shard;
  std::string want;
};

TEST(Merge, ABadFieldOfARecordIsNamedAndNothingIsWritten) {
  char dir[] = "/tmp/pv_merge_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string d = dir;
  const json check = json::parse(slurp(std::string(POSVERIFY_SOURCE_DIR) + "/examples/python/llama_rope_baseline.json"));
  const json verify = json::parse(slurp(std::string(POSVERIFY_SOURCE_DIR) + "/reports/claims.json"));
  json worst = *check.find("laws")->items()[3].second.find("worst");
  ASSERT_FALSE(worst.is_null());
  worst.set("bound", json::string("abc"));
  const merge_case cases[] = {
      {with_field(check, "laws", 5, "cases", json::string("x")),
       "bad.json: laws[5].cases: expected a whole number, got a string"},
      {with_field(check, "laws", 3, "worst", worst), "bad.json: laws[3].worst.bound: expected a number, got a string"},
      {with_field(verify, "claims", 3, "checked", json::integer(7)),
       "bad.json: claims[3].checked: expected a string, got a number"},
      {with_field(verify, "properties", 1, "cases", json()),
       "bad.json: properties[1].cases: expected a whole number, got null"},
  };
  for (const auto& [shard, want] : cases) {
    std::ofstream(d + "/bad.json") << shard.dump();
    const auto r = pv::test::run_posverify("merge " + d + "/out " + d + "/bad.json");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
    EXPECT_FALSE(std::ifstream(d + "/out/bad.json").good());
    EXPECT_FALSE(std::ifstream(d + "/out/bad.md").good());
  }
  // the same reports unharmed merge (a whole run merges alone)
  std::ofstream(d + "/bad.json") << verify.dump();
  const auto r = pv::test::run_posverify("merge " + d + "/out " + d + "/bad.json");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(slurp(d + "/out/bad.json"), verify.dump());
  std::remove((d + "/out/bad.json").c_str());
  std::remove((d + "/out/bad.md").c_str());
  std::remove((d + "/bad.json").c_str());
  ::rmdir((d + "/out").c_str());
  ::rmdir(dir);
}

}  // namespace

}  // namespace cli_merge_test
