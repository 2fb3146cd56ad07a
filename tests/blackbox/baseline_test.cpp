// Hostile baselines for `posverify check --baseline`: every option it carries
// is validated as the command line validates it, the shape is checked before
// anything runs, and every error names the file, the field and the value.
#include "blackbox/baseline.h"
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace blackbox_baseline_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::blackbox::parse_baseline;
namespace fs = std::filesystem;

std::string error_of(const std::string& text) {
  try {
    parse_baseline(text, "b.json");
  } catch (const pv::usage_error& e) {
    return e.what();
  }
  return "";
}

std::string with_options(const std::string& options) {
  return "{\"seed\": \"7\", \"options\": {" + options + "}, \"laws\": []}";
}

TEST(Baseline, MaxPositionIsValidatedAsOnTheCommandLine) {
  // "inf" and 1e300 let a RoPE wrong from position 4096 pass (exit 0)
  EXPECT_EQ(error_of(with_options("\"max_position\": \"inf\"")),
            "--baseline 'b.json': options.max_position: expected a whole number, got a string");
  EXPECT_EQ(error_of(with_options("\"max_position\": 1e300")),
            "--baseline 'b.json': options.max_position (as --max-position): expected a whole number, got '1e300'");
  EXPECT_EQ(error_of(with_options("\"max_position\": 16777217")),
            "--baseline 'b.json': options.max_position (as --max-position): 16777217 is out of range [1, 16777216]");
  EXPECT_NE(error_of(with_options("\"max_position\": 0")).find("0 is out of range [1, 16777216]"), std::string::npos);
  const auto b = parse_baseline(with_options("\"max_position\": 4096, \"cases\": 30"), "b.json");
  EXPECT_EQ(*b.max_position, 4096u);
  EXPECT_EQ(*b.cases, 30u);
  EXPECT_EQ(*b.seed, 7u);
}

TEST(Baseline, CasesAreValidatedAsOnTheCommandLine) {
  // 4294967297 became 1 case; 2147483647 exhausted memory
  for (const char* n : {"4294967297", "2147483647", "1000001"})
    EXPECT_EQ(error_of(with_options(std::string("\"cases\": ") + n)),
              std::string("--baseline 'b.json': options.cases (as --cases): ") + n + " is out of range [1, 1000000]");
  EXPECT_NE(error_of(with_options("\"cases\": -1")).find("expected a whole number, got '-1'"), std::string::npos);
  EXPECT_NE(error_of(with_options("\"cases\": 2.5")).find("got '2.5'"), std::string::npos);
}

TEST(Baseline, SeedMustBeAWholeNumber) {
  EXPECT_EQ(error_of("{\"seed\": {}, \"laws\": []}"),
            "--baseline 'b.json': seed: expected a whole number, got an object");
  EXPECT_EQ(error_of("{\"seed\": \"abc\", \"laws\": []}"),
            "--baseline 'b.json': seed (as --seed): expected a whole number, got 'abc'");
  EXPECT_EQ(*parse_baseline("{\"seed\": 18446744073709551615, \"laws\": []}", "b.json").seed, UINT64_MAX);
}

TEST(Baseline, WrongShapesNameTheField) {
  EXPECT_EQ(error_of("[]"), "--baseline 'b.json': the top level: expected an object, got an array");
  EXPECT_EQ(error_of("{}"), "--baseline 'b.json': laws: missing (not a posverify check report)");
  EXPECT_EQ(error_of("{\"laws\": 3}"), "--baseline 'b.json': laws: expected an array, got a number");
  EXPECT_EQ(error_of("{\"laws\": [{\"id\": \"x\"}]}"), "--baseline 'b.json': laws[0].verdict: missing");
  EXPECT_EQ(error_of("{\"laws\": [{\"id\": \"x\", \"verdict\": \"pased\"}]}"),
            "--baseline 'b.json': laws[0].verdict: \"pased\" names no verdict");
  EXPECT_EQ(error_of("{\"laws\": [{\"id\": \"x\", \"verdict\": \"gave_up\"}]}"),
            "--baseline 'b.json': laws[0].verdict: \"gave_up\" names no verdict");
  EXPECT_EQ(error_of("{\"laws\": [{\"id\": 1, \"verdict\": \"passed\"}]}"),
            "--baseline 'b.json': laws[0].id: expected a string, got a number");
  EXPECT_EQ(error_of("{\"laws\": [{\"id\": \"x\", \"verdict\": \"passed\", \"worst\": {\"max_error\": \"abc\"}}]}"),
            "--baseline 'b.json': laws[0].worst.max_error: expected a number, got a string");
  EXPECT_EQ(error_of("{\"laws\": [{\"id\": \"x\", \"verdict\": \"passed\", \"worst\": {\"ratio\": -1}}]}"),
            "--baseline 'b.json': laws[0].worst.ratio: '-1' is not a finite number >= 0");
  EXPECT_EQ(error_of("{\"options\": [], \"laws\": []}"), "--baseline 'b.json': options: expected an object, got an array");
  EXPECT_NE(error_of(std::string(100000, '[')).find("is not valid JSON: JSON: nesting deeper"), std::string::npos);
}

TEST(Baseline, AFolderOrAMissingFileIsNamed) {
  const std::string dir = fs::temp_directory_path().string();
  try {
    pv::blackbox::load_baseline(dir);
    FAIL() << "a folder was read as a baseline";
  } catch (const pv::usage_error& e) {
    EXPECT_EQ(std::string(e.what()), "--baseline: cannot read '" + dir + "': it is a folder, not a file");
  }
  EXPECT_THROW(pv::blackbox::load_baseline(dir + "/no-such-posverify-baseline.json"), pv::usage_error);
}

// A baseline saved before a law was renamed: its record under the old id
// (laws/aliases.h) is compared with the law under today's id, not called absent.
TEST(Baseline, ALawsFormerIdComparesWithItsIdToday) {
  const auto base = parse_baseline(
      "{\"laws\": [{\"id\": \"sinusoid.shift_map[float32]\", \"verdict\": \"passed\", "
      "\"worst\": {\"max_error\": 1e-6, \"ratio\": 0.1}}, "
      "{\"id\": \"attention.no_such_law[float32]\", \"verdict\": \"passed\"}]}",
      "old.json");
  pv::blackbox::law_result now;
  now.id = "sinusoid.linear_shift[float32]";
  now.base_id = "sinusoid.linear_shift";
  now.verdict = pv::verdict::passed;
  now.has_worst = true;
  now.max_error = pv::hp(1.5e-6);
  now.max_error_bound = pv::hp(1e-5);
  now.worst_error = pv::hp(1.5e-6);
  now.worst_bound = pv::hp(1e-5);
  auto regs = pv::blackbox::compare(base, {now});
  // only the law that is gone is a regression; the renamed one held and still holds
  ASSERT_EQ(regs.size(), 1u) << regs.dump();
  EXPECT_EQ(regs.items()[0].second.as_string(),
            "`attention.no_such_law[float32]` held in the baseline and now is absent");
  // and it is judged: failing today is a regression named by both ids
  now.verdict = pv::verdict::failed;
  regs = pv::blackbox::compare(base, {now});
  ASSERT_EQ(regs.size(), 2u);
  EXPECT_EQ(regs.items()[0].second.as_string(),
            "`sinusoid.linear_shift[float32]` (`sinusoid.shift_map[float32]` in the baseline) held in the "
            "baseline and now is failed");
  // its figures are compared too: an error grown past the margin
  now.verdict = pv::verdict::passed;
  now.max_error = pv::hp(5e-6);
  regs = pv::blackbox::compare(base, {now});
  ASSERT_EQ(regs.size(), 2u);
  EXPECT_NE(regs.items()[0].second.as_string().find("(`sinusoid.shift_map[float32]` in the baseline): largest "
                                                    "error grew"),
            std::string::npos)
      << regs.items()[0].second.as_string();
}

TEST(Baseline, ALawThatLawLeftOutIsNotComparedButOneItRunsIs) {
  const auto base = parse_baseline(
      "{\"laws\": [{\"id\": \"rope.rows[text-halves-64/float32]\", \"verdict\": \"passed\"}, "
      "{\"id\": \"rope.reference[text-halves-64/float32]\", \"verdict\": \"passed\"}]}",
      "old.json");
  pv::blackbox::law_result now;
  now.id = "rope.rows[text-halves-64/float32]";
  now.base_id = "rope.rows";
  now.verdict = pv::verdict::passed;
  // --law rope.rows: rope.reference was not run, so it is no regression
  EXPECT_EQ(pv::blackbox::compare(base, {now}, {"rope.rows"}).size(), 0u);
  // without --law it is absent from the run: a regression
  EXPECT_EQ(pv::blackbox::compare(base, {now}).size(), 1u);
  // and a law that --law asked for is judged as ever
  now.verdict = pv::verdict::failed;
  const auto regs = pv::blackbox::compare(base, {now}, {"rope.rows", "rope.ref"});
  ASSERT_EQ(regs.size(), 2u) << regs.dump();
  EXPECT_EQ(regs.items()[1].second.as_string(),
            "`rope.reference[text-halves-64/float32]` held in the baseline and now is absent");
}

// End to end: a bad baseline stops `check` before it runs, and writes nothing.
TEST(Baseline, ABadBaselineStopsCheckBeforeItRuns) {
  const fs::path dir = fs::path(POSVERIFY_TEST_OUT) / "bad-baseline";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string base = (dir / "base.json").string();
  std::ofstream(base) << with_options("\"max_position\": \"inf\"");
  const std::string plugin = pv::plugin_test::plugin_map(POSVERIFY_BUILTIN_PLUGINS).at("plain_float");
  const auto r = pv::test::run_posverify("check --impl " + plugin + " --baseline " + base + " --out " + dir.string());
  const std::string& out = r.out;
  EXPECT_EQ(r.code, 2) << out;
  EXPECT_NE(out.find("options.max_position: expected a whole number, got a string"), std::string::npos) << out;
  EXPECT_EQ(out.find("checking "), std::string::npos) << "the run started: " << out;
  EXPECT_FALSE(fs::exists(dir / "builtin-plain-float.json"));
}

}  // namespace

}  // namespace blackbox_baseline_test
