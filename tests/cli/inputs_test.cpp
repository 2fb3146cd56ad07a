// Hostile command lines: every bad option or replay string exits 2 with a
// message naming the option and the value, before anything runs.
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

using pv::test::run_posverify;

void expect_usage_error(const std::string& args, const std::string& message) {
  const auto r = run_posverify(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
}

TEST(ReplayInput, HostileReproduceStringsExit2) {
  // the adversarial string: size 0xffffffff allocated without limit
  expect_usage_error("replay rope.shift_invariance " + std::string(70, '0') + "ffffffff00",
                     "replay: reproduce string: size 4294967295 is out of range [0, 100]");
  // an empty string ran the whole search and exited 0
  expect_usage_error("replay rope.shift_invariance ''", "replay: reproduce string: empty");
  // a truncated one was read past its end
  expect_usage_error("replay rope.shift_invariance " + std::string(64, '0') + "80",
                     "replay: reproduce string: truncated in the random bits");
  expect_usage_error("replay rope.shift_invariance 0", "odd number of hex digits (1)");
  expect_usage_error("replay rope.shift_invariance xy", "character 1 is not a hex digit");
  expect_usage_error("replay no.such.property 00", "replay: no property named 'no.such.property'");
}

TEST(OptionInput, PrecisionBitsAreBounded) {
  for (const char* cmd : {"verify", "check --impl x.so"}) {
    expect_usage_error(std::string(cmd) + " --precision-bits abc",
                       "--precision-bits: expected a whole number, got 'abc'");
    // 100000 bits was accepted and then never finished
    expect_usage_error(std::string(cmd) + " --precision-bits 100000",
                       "--precision-bits: 100000 is out of range [64, 4096]");
  }
  expect_usage_error("verify --cases 1e3", "--cases: expected a whole number, got '1e3'");
  expect_usage_error("check --impl x.so --max-position inf", "--max-position: expected a whole number, got 'inf'");
  expect_usage_error("budgets --seed -1", "--seed: expected a whole number, got '-1'");
}

TEST(OptionInput, OutOfMemoryWhileReadingIsExit2) {
#ifdef __SANITIZE_ADDRESS__
  GTEST_SKIP() << "ASan reserves more address space than the limit this test sets";
#endif
  // an 8 MB baseline of 4 million zeros needs ~700 MB as a JSON tree; 400 MB
  // of address space makes the reader run out of memory
  const std::string path = ::testing::TempDir() + "posverify-huge-baseline.json";
  std::string text = "[0";
  text.reserve(8000004);
  for (int i = 0; i < 4000000; ++i) text += ",0";
  std::ofstream(path) << text << "]";
  const auto r = pv::test::run_posverify_in("ulimit -v 400000; ", "check --impl x.so --baseline " + path);
  std::remove(path.c_str());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("posverify: out of memory"), std::string::npos) << r.out;
}

TEST(OptionInput, HelpStatesThePrecisionRange) {
  for (const char* cmd : {"verify --help", "check --help"}) {
    const auto r = run_posverify(cmd);
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("range [64, 4096]"), std::string::npos) << r.out;
  }
}

}  // namespace
