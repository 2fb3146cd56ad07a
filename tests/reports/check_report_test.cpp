// A law's record in the check report (reports/check_report.cpp writes it,
// reports/check_merge.cpp reads it back), by its one field
// table (law_fields(), blackbox/law_result.h): a record reads back to the
// same bytes, its extra fields and its worst case included; a saved report
// reads back byte for byte; a bad field is named with the entry and field.
#include "blackbox/law_result.h"

#include "support/slurp.h"

#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

namespace reports_check_report_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::test::slurp;

using pv::json;
using pv::blackbox::law_fields;
using pv::blackbox::law_result;

law_result failed_law() {
  law_result r;
  r.id = "rope.reference[halves-8/float32]";
  r.base_id = "rope.reference";
  r.law = "the kernel's RoPE equals the reference";
  r.tolerance = "4 u |x|";
  r.dtype = "float32";
  r.config = "halves-8";
  r.verdict = pv::verdict::failed;
  r.cases = 3;
  r.unsupported = 2;
  r.seed = 18446744073709551615ull;
  r.finding = "entry 3: |difference| = 1 exceeds the tolerance 0.5";
  r.counterexample = "x = [0x1p+0]";
  r.replay = "posverify check --case 2";
  r.has_worst = true;
  r.worst_error = pv::hp(1);
  r.worst_bound = pv::hp(0.5);
  r.worst_where = "case 2, entry 3";
  r.worst_replay = "posverify check --case 2";
  r.max_error = pv::hp(1);
  r.max_error_bound = pv::hp(0.5);
  r.extra.set("diagnosis", json::string("the sine has the wrong sign"));
  return r;
}

TEST(CheckReportLaws, ARecordReadsBackToTheSameBytes) {
  const law_result r = failed_law();
  const json j = law_fields().write(r);
  const law_result back = law_fields().read(j, "a.json: laws[0]");
  EXPECT_EQ(law_fields().write(back).dump(), j.dump());
  EXPECT_EQ(back.seed, r.seed);
  EXPECT_EQ(back.unsupported, 2);
  EXPECT_TRUE(back.has_worst);
  EXPECT_EQ(back.worst_where, r.worst_where);
  EXPECT_EQ(back.extra.dump(), r.extra.dump());
  // the keys in the order the check report has always written them, then the extra ones
  std::string keys;
  for (const auto& kv : j.items()) keys += kv.first + " ";
  EXPECT_EQ(keys, "id law tolerance verdict cases seed counterexample replay finding base_id dtype config "
                  "unsupported_cases worst diagnosis ");
  std::string worst;
  for (const auto& kv : j.find("worst")->items()) worst += kv.first + " ";
  EXPECT_EQ(worst, "error bound ratio where replay max_error max_error_bound ");
  EXPECT_EQ(j.find("worst")->find("ratio")->as_string(), "2.000000e+00");
}

TEST(CheckReportLaws, APassedLawWritesNoCounterexampleAndNoWorstReadsNone) {
  law_result r = failed_law();
  r.verdict = pv::verdict::passed;
  r.has_worst = false;
  r.config.clear();
  const json j = law_fields().write(r);
  EXPECT_TRUE(j.find("counterexample")->is_null());
  EXPECT_TRUE(j.find("replay")->is_null());
  EXPECT_TRUE(j.find("worst")->is_null());
  EXPECT_TRUE(j.find("config")->is_null());
  const law_result back = law_fields().read(j, "a.json: laws[0]");
  EXPECT_FALSE(back.has_worst);
  EXPECT_EQ(back.counterexample, "");
  EXPECT_EQ(law_fields().write(back).dump(), j.dump());
}

std::string error_of(json j) {
  try {
    law_fields().read(j, "s.json: laws[4]");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CheckReportLaws, ABadFieldIsNamed) {
  const json good = law_fields().write(failed_law());
  EXPECT_EQ(error_of(good), "(no error)");
  json j = good;
  j.set("unsupported_cases", json::string("2"));
  EXPECT_EQ(error_of(j), "s.json: laws[4].unsupported_cases: expected a whole number, got a string");
  j = good;
  j.set("seed", json::string("-1"));
  EXPECT_EQ(error_of(j), "s.json: laws[4].seed: expected a whole number, got '-1'");
  j = good;
  json w = *j.find("worst");
  w.set("max_error", json::boolean(true));
  j.set("worst", w);
  EXPECT_EQ(error_of(j), "s.json: laws[4].worst.max_error: expected a number, got a boolean");
  j = good;
  j.set("worst", json::array());
  EXPECT_EQ(error_of(j), "s.json: laws[4].worst: expected an object or null, got an array");
  // a key the check report does not write is kept as an extra field, not refused
  j = good;
  j.set("from_a_newer_version", json::integer(1));
  EXPECT_EQ(error_of(j), "(no error)");
}

// A figure that is not finite is written as the text json::number keeps
// ("inf", "nan"), and reads back.
TEST(CheckReportLaws, ANonFiniteFigureReadsBack) {
  law_result r = failed_law();
  r.worst_error = std::numeric_limits<double>::infinity();
  const json j = law_fields().write(r);
  EXPECT_EQ(j.find("worst")->find("error")->type(), json::kind::string);
  const law_result back = law_fields().read(j, "a.json: laws[0]");
  EXPECT_EQ(law_fields().write(back).dump(), j.dump());
}

// A saved check report (the Python example's baseline) reads back law by law
// and writes the same bytes.
TEST(CheckReportLaws, ASavedCheckReportReadsBackByteForByte) {
  const json j = json::parse(slurp(std::string(POSVERIFY_SOURCE_DIR) + "/examples/python/llama_rope_baseline.json"));
  const json* laws = j.find("laws");
  ASSERT_NE(laws, nullptr);
  ASSERT_GT(laws->size(), 10u);
  // figures are read back at the precision the report was written with (as merge does)
  const unsigned before = pv::ref::precision_bits();
  pv::ref::set_precision_bits(unsigned(j.find("precision_bits")->as_integer()));
  const auto read = pv::fields::read_list(j, "laws", law_fields(), "llama_rope_baseline.json");
  ASSERT_EQ(read.size(), laws->size());
  for (std::size_t i = 0; i < read.size(); ++i)
    EXPECT_EQ(law_fields().write(read[i]).dump(), laws->items()[i].second.dump()) << i;
  pv::ref::set_precision_bits(before);
}

}  // namespace

}  // namespace reports_check_report_test
