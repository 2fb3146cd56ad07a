// A record's field table (core/record_fields.h) drives its writer and its
// reader: what is written reads back to the same record, the keys the table
// does not name go to the record's extra fields and come out again, and a
// bad field is named with the file, the entry and the field. The claims
// report's tables (core/results_fields.h) are checked against claims.json itself.
#include "core/record_fields.h"
#include "core/results_fields.h"

#include "support/slurp.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace core_record_fields_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::test::slurp;

using pv::json;
namespace fields = pv::fields;

struct rec {
  std::string name, note;
  int count = 0;
  pv::verdict v = pv::verdict::not_run;
  std::optional<std::string> why, later;
  json extra = json::object();
};

const fields::table<rec>& rec_fields() {
  static const fields::table<rec> t({fields::text("name", &rec::name), fields::text_or_null("note", &rec::note),
                                     fields::whole("count", &rec::count), fields::verdict_field("verdict", &rec::v),
                                     fields::optional_text("why", &rec::why),
                                     fields::optional_text("later", &rec::later, true)},
                                    &rec::extra);
  return t;
}

std::string error_of(const std::string& text) {
  try {
    rec_fields().read(json::parse(text), "a.json: laws[3]");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(RecordFields, WhatIsWrittenReadsBackTheSame) {
  rec r;
  r.name = "x";
  r.count = 5;
  r.v = pv::verdict::failed;
  r.why = "because";
  r.extra.set("shapes", json::array().push(json::integer(1)));
  const json j = rec_fields().write(r);
  EXPECT_EQ(j.dump(), json::parse(R"({"name": "x", "note": null, "count": 5, "verdict": "failed", "why": "because",
                                      "shapes": [1]})").dump());
  const rec back = rec_fields().read(j, "a.json: laws[0]");
  EXPECT_EQ(back.name, "x");
  EXPECT_EQ(back.note, "");
  EXPECT_EQ(back.count, 5);
  EXPECT_EQ(back.v, pv::verdict::failed);
  EXPECT_EQ(back.why, "because");
  EXPECT_FALSE(back.later.has_value());
  EXPECT_EQ(back.extra.dump(), r.extra.dump());  // only the keys the table does not name
  EXPECT_EQ(rec_fields().write(back).dump(), j.dump());
}

TEST(RecordFields, ABadFieldIsNamedWithTheFileTheEntryAndTheField) {
  const std::string ok = R"("name": "x", "note": null, "count": 5, "verdict": "passed", "why": null)";
  EXPECT_EQ(error_of("{" + ok + "}"), "(no error)");
  EXPECT_EQ(error_of(R"({"note": null, "count": 5, "verdict": "passed", "why": null})"),
            "a.json: laws[3].name: missing");
  EXPECT_EQ(error_of(R"({"name": 1, "note": null, "count": 5, "verdict": "passed", "why": null})"),
            "a.json: laws[3].name: expected a string, got a number");
  EXPECT_EQ(error_of(R"({"name": "x", "note": null, "count": "5", "verdict": "passed", "why": null})"),
            "a.json: laws[3].count: expected a whole number, got a string");
  EXPECT_EQ(error_of(R"({"name": "x", "note": [], "count": 5, "verdict": "passed", "why": null})"),
            "a.json: laws[3].note: expected a string or null, got an array");
  EXPECT_EQ(error_of(R"({"name": "x", "note": null, "count": 5, "verdict": "pased", "why": null})"),
            "a.json: laws[3].verdict: \"pased\" names no verdict");
  EXPECT_EQ(error_of("[]"), "a.json: laws[3]: expected an object, got an array");
  EXPECT_EQ(error_of("{" + ok + R"(, "later": 2})"), "a.json: laws[3].later: expected a string or null, got a number");
}

TEST(RecordFields, AListIsReadEntryByEntry) {
  const json report = json::parse(R"({"laws": [{"name": "x", "note": null, "count": 1, "verdict": "passed",
    "why": null}, {"name": "y", "note": null, "count": 1, "verdict": "passed"}]})");
  try {
    fields::read_list(report, "laws", rec_fields(), "s.json");
    FAIL() << "a record without a required field was read";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "s.json: laws[1].why: missing");
  }
  EXPECT_TRUE(fields::read_list(report, "claims", rec_fields(), "s.json").empty());
}

// The committed claims.json reads back through the tables and writes again
// byte for byte: the tables name every field the writer writes, in its order.
TEST(RecordFields, TheCommittedClaimsReportReadsBackAndWritesTheSameBytes) {
  const std::string text = slurp(std::string(POSVERIFY_SOURCE_DIR) + "/reports/claims.json");
  ASSERT_FALSE(text.empty());
  const json j = json::parse(text);
  const pv::report r = pv::report_fields().read(j, "claims.json: ");
  EXPECT_GT(r.claims.size(), 20u);
  EXPECT_GT(r.properties.size(), 10u);
  EXPECT_EQ(pv::report_fields().write(r).dump(), j.dump());
  // the keys a claim's extra holds are exactly those the table does not name
  for (const auto& c : r.claims)
    for (const auto& kv : c.extra.items()) EXPECT_FALSE(pv::claim_fields().known(kv.first)) << kv.first;
}

TEST(RecordFields, AClaimsReportWithABadClaimNamesIt) {
  json j = json::parse(slurp(std::string(POSVERIFY_SOURCE_DIR) + "/reports/claims.json"));
  json claims = *j.find("claims");
  json c = claims.items()[2].second;
  c.set("values", json::array());
  json bad = json::array();
  for (std::size_t i = 0; i < claims.size(); ++i) bad.push(i == 2 ? c : claims.items()[i].second);
  j.set("claims", bad);
  try {
    pv::report_fields().read(j, "claims.json: ");
    FAIL() << "a claim whose values are an array was read";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "claims.json: claims[2].values: expected an object, got an array");
  }
}

}  // namespace

}  // namespace core_record_fields_test
