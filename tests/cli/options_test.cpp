// The option tables on CLI11 (src/cli/options.h): every usage error names the
// option and the value, occurrences apply in command-line order, and
// `verify`'s table keeps its ranges.
#include "cli/options.h"
#include "cli/verify_args.h"

#include <gtest/gtest.h>

namespace pv::cli {
namespace cli_options_test {  // this file's names: a unity build compiles several test files as one
namespace {

std::string usage_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const usage_error& e) {
    return e.what();
  }
  return "(no usage_error)";
}

struct seen {
  std::vector<std::string> log;
  option_table table() {
    return {
        {"--n", "N", "a number", [&](const std::string& v) { log.push_back("n=" + std::to_string(parse_u64("--n", v, 1, 9))); }},
        {"--name", "S", "a string", [&](const std::string& v) { log.push_back("name=" + v); }},
        {"--flag", "", "a switch", [&](const std::string&) { log.push_back("flag"); }},
    };
  }
};

TEST(Options, AppliesEveryOccurrenceInCommandLineOrder) {
  seen s;
  parse_options("t", s.table(), {"--name", "a", "--flag", "--n", "3", "--name", "b"});
  EXPECT_EQ(s.log, (std::vector<std::string>{"name=a", "flag", "n=3", "name=b"}));
}

TEST(Options, ValuesMayLookLikeNegativeNumbersOrBeEmpty) {
  seen s;
  parse_options("t", s.table(), {"--name", "-1", "--name", ""});
  EXPECT_EQ(s.log, (std::vector<std::string>{"name=-1", "name="}));
}

TEST(Options, UnknownOptionIsNamed) {
  seen s;
  EXPECT_EQ(usage_message([&] { parse_options("t", s.table(), {"--nope", "1"}); }), "t: unknown option '--nope'");
  EXPECT_EQ(usage_message([&] { parse_options("t", s.table(), {"stray"}); }), "t: unknown option 'stray'");
}

TEST(Options, PositionalsOnlyWhenAsked) {
  seen s;
  std::vector<std::string> pos;
  parse_options("t", s.table(), {"a.so", "--flag", "b.so"}, &pos);
  EXPECT_EQ(pos, (std::vector<std::string>{"a.so", "b.so"}));
  EXPECT_EQ(usage_message([&] { parse_options("t", s.table(), {"--bad"}, &pos); }), "t: unknown option '--bad'");
}

TEST(Options, MissingValueIsNamed) {
  seen s;
  EXPECT_EQ(usage_message([&] { parse_options("t", s.table(), {"--n"}); }), "--n needs a value");
}

TEST(Options, BadValueNamesOptionAndValue) {
  seen s;
  EXPECT_EQ(usage_message([&] { parse_options("t", s.table(), {"--n", "x"}); }),
            "--n: expected a whole number, got 'x'");
  EXPECT_EQ(usage_message([&] { parse_options("t", s.table(), {"--n", "10"}); }), "--n: 10 is out of range [1, 9]");
}

TEST(Options, HelpListsEveryRow) {
  seen s;
  const std::string h = options_help(s.table());
  EXPECT_NE(h.find("  --n N"), std::string::npos) << h;
  EXPECT_NE(h.find("a switch"), std::string::npos) << h;
}

TEST(VerifyArgs, TableSetsTheFields) {
  const auto v = parse_verify_args({"--out", "d", "--cases", "7", "--seed", "9", "--property", "p",
                                    "--precision-bits", "64", "--fault-matrix"});
  EXPECT_EQ(v.out_dir, "d");
  EXPECT_EQ(v.run.cases, 7);
  EXPECT_TRUE(v.cases_given);
  EXPECT_EQ(v.run.seed, 9u);
  EXPECT_EQ(v.only, "p");
  EXPECT_EQ(v.precision_bits, 64u);
  EXPECT_TRUE(v.fault_matrix);
  EXPECT_EQ(usage_message([] { parse_verify_args({"--cases", "0"}); }), "--cases: 0 is out of range [1, 1000000]");
  EXPECT_EQ(usage_message([] { parse_verify_args({"--bogus"}); }), "verify: unknown option '--bogus'");
}

}  // namespace
}  // namespace cli_options_test
}  // namespace pv::cli
