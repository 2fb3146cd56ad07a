// Hostile command lines: every bad option or replay string exits 2 with a
// message naming the option and the value, before anything runs.
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace cli_inputs_test {  // this file's names: a unity build compiles several test files as one

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

TEST(ReplayInput, AStringThatReproducesNoFailureExits2) {
  // well-formed, but its case holds: it reproduces nothing (was exit 1, as a failure)
  expect_usage_error("replay rope.shift_invariance " + std::string(70, '0') + "0000000000",
                     "replay: the reproduce string gives a case of rope.shift_invariance that holds: it reproduces "
                     "no failure");
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
  if (pv::test::under_asan) GTEST_SKIP() << "ASan reserves more address space than the limit this test sets";
  // an 8 MB baseline of 4 million zeros needs ~700 MB as a JSON tree; 400 MB
  // of address space makes the reader run out of memory
  const std::string path = ::testing::TempDir() + "posverify-huge-baseline.json";
  std::string text = "[0";
  text.reserve(8000004);
  for (int i = 0; i < 4000000; ++i) text += ",0";
  std::ofstream(path) << text << "]";
  const auto r = pv::test::run_posverify_in(pv::test::address_space_limit(400000), "check --impl x.so --baseline " + path);
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

// --- reports fed back: merge, html, --baseline -----------------------------

/// A fresh scratch folder for one test.
std::string scratch(const std::string& name) {
  const std::string d = ::testing::TempDir() + "posverify-inputs-" + name;
  std::system(("rm -rf '" + d + "' && mkdir -p '" + d + "'").c_str());
  return d;
}

/// A check shard report (the fields merge compares), with `seed` and `shard` as given.
std::string shard_report(const std::string& seed, const std::string& shard) {
  return R"({"tool": "posverify", "version": "x", "precision_bits": 128, "seed": )" + seed +
         R"(, "implementation": {"name": "n", "path": "p", "abi_version": 1, "attention": true, "rope": false,
         "sinusoid": false}, "options": {"cases": 3, "max_position": 8192, "timeout_ms": 2000,
         "memory_limit_bytes": 0, "min_cases": 1, "accuracy": "dtype"}, "summary": {}, "laws": [],
         "sweep": [], "diagnosis": [], "regressions": [], "shard": )" + shard + "}";
}

TEST(MergeInput, ASeedThatIsNotAWholeNumberNamesTheFileAndField) {
  const std::string d = scratch("merge-seed");
  const std::string a = d + "/a.json", b = d + "/b.json";
  std::ofstream(a) << shard_report(R"({"x": 1})", R"({"index": 1, "total": 2, "units": 2, "entries": {"laws": [], "sweep": [], "diagnosis": []}})");
  std::ofstream(b) << shard_report(R"({"x": 1})", R"({"index": 2, "total": 2, "units": 2, "entries": {"laws": [], "sweep": [], "diagnosis": []}})");
  auto r = run_posverify("merge " + d + "/out " + a + " " + b);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(a + ": seed: expected a whole number in [0, 2^64), got an object"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("stoull"), std::string::npos) << r.out;
}

TEST(MergeInput, AShardClaimingAHugeTotalIsRefusedAtOnce) {
  const std::string d = scratch("merge-total");
  const std::string a = d + "/a.json";
  std::ofstream(a) << shard_report("\"1\"", R"({"index": 1, "total": 1000000000000000, "units": 2, "entries": {"laws": [], "sweep": [], "diagnosis": []}})");
  // was: a list of 10^15 missing shards, 1 GB in 6 s and growing (the address-space
  // limit stops it at 2 GB; under ASan, where no such limit can be set, the timeout does)
  auto r = pv::test::run_posverify_in(pv::test::address_space_limit(2000000) + "timeout 20 ", "merge " + d + "/out " + a);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(a + ": shard.total 1000000000000000 is out of range [2, 100000]"), std::string::npos) << r.out;
}

TEST(MergeInput, APrecisionOutOfRangeIsRefused) {
  const std::string d = scratch("merge-precision");
  const std::string a = d + "/a.json", b = d + "/b.json";
  const std::string entries = R"("entries": {"laws": [], "sweep": [], "diagnosis": []}})";
  for (const char* bits : {"4000000000", "-1", "\"256\""}) {
    std::string sa = shard_report("\"1\"", R"({"index": 1, "total": 2, "units": 0, )" + entries);
    std::string sb = shard_report("\"1\"", R"({"index": 2, "total": 2, "units": 0, )" + entries);
    for (std::string* t : {&sa, &sb}) t->replace(t->find("128"), 3, bits);
    std::ofstream(a) << sa;
    std::ofstream(b) << sb;
    // was: MPFR numbers of 4e9 bits, "GNU MP: Cannot allocate memory" and SIGABRT
    // (the address-space limit; under ASan, where none can be set, the timeout)
    auto r = pv::test::run_posverify_in(pv::test::address_space_limit(2000000) + "timeout 20 ",
                                        "merge " + d + "/out " + a + " " + b);
    EXPECT_EQ(r.code, 2) << bits << "\n" << r.out;
    EXPECT_NE(r.out.find(a + ": precision_bits: expected a whole number in [64, 4100], got "), std::string::npos) << r.out;
  }
}

TEST(MergeInput, AReportEntryMissingAFieldIsAnErrorNotACrash) {
  // found by fuzz_merge (fuzz/corpus/merge/sweep_row_key_garbled.json): a
  // sweep row whose key is garbled was read through a null pointer
  const std::string d = scratch("merge-sweep-row");
  std::string whole = shard_report("\"1\"", "null");
  whole.replace(whole.find(", \"shard\": null"), 15, "");
  whole.replace(whole.find("\"sweep\": []"), 11,
                R"("sweep": [{"config": "c", "dtype": "float32", "rows": [{"position": 1, "max_eror": 0.5,
                "error_over_tolerance": 0.1, "error_over_tolerance_at_max_position": 0.1}]}])");
  std::ofstream(d + "/a.json") << whole;
  auto r = run_posverify("merge " + d + "/out " + d + "/a.json");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(d + "/a.json: sweep[0].rows[0]: no \"max_error\""), std::string::npos) << r.out;
}

TEST(MergeInput, DevicesAndFifosAreRefusedNotReadForever) {
  const std::string d = scratch("merge-fifo");
  const std::string fifo = d + "/shard.fifo";
  ASSERT_EQ(std::system(("mkfifo '" + fifo + "'").c_str()), 0);
  for (const std::string& in : {std::string("/dev/zero"), fifo}) {
    // `timeout` turns a hang (the FIFO) or an endless read (/dev/zero) into exit 124
    auto r = pv::test::run_posverify_in("timeout 20 ", "merge " + d + "/out " + in);
    EXPECT_EQ(r.code, 2) << in << "\n" << r.out;
    EXPECT_NE(r.out.find("cannot read '" + in + "': not a regular file"), std::string::npos) << r.out;
    r = pv::test::run_posverify_in("timeout 20 ", "html --check " + in);
    EXPECT_EQ(r.code, 2) << in << "\n" << r.out;
    EXPECT_NE(r.out.find("cannot read '" + in + "': not a regular file"), std::string::npos) << r.out;
    r = pv::test::run_posverify_in("timeout 20 ", "check --impl x.so --baseline " + in);
    EXPECT_EQ(r.code, 2) << in << "\n" << r.out;
    EXPECT_NE(r.out.find("--baseline: cannot read '" + in + "': not a regular file"), std::string::npos) << r.out;
  }
}

TEST(HtmlInput, AReportEntryMissingAFieldIsAnErrorNotACrash) {
  const std::string d = scratch("html-missing");
  // a check report whose sweep row has no max_error
  std::ofstream(d + "/c.json") << R"({"implementation": {"name": "n"}, "laws": [], "sweep": [{"config": "c", "dtype": "float32",
      "rows": [{"position": 1, "error_over_tolerance": 0.5}]}]})";
  auto r = run_posverify("html --check " + d + "/c.json");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("c.json#/sweep/0/rows/0: no \"max_error\""), std::string::npos) << r.out;
  // the index: a budget row without max_ulps, a panel law without runs
  std::ofstream(d + "/claims.json") << R"({"claims": []})";
  std::ofstream(d + "/error_budgets.json") << R"({"rows": [{"law": "l", "implementation": "i", "max_over_bound": 0.1,
      "rms_over_bound": 0.01}]})";
  r = run_posverify("html --out " + d);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error_budgets.json#/rows/0: no \"max_ulps\""), std::string::npos) << r.out;
  std::remove((d + "/error_budgets.json").c_str());
  std::ofstream(d + "/panel.json") << R"({"members": [{"member": "m", "laws": [{"law": "l", "worst_ratio": 0.1}]}]})";
  r = run_posverify("html --out " + d);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("panel.json#/members/0/laws/0: no \"runs\""), std::string::npos) << r.out;
}

TEST(OptionInput, AShapeWhoseProductIsTooLargeIsRefused) {
  // each size is within 2^20; the product would run for hours
  expect_usage_error("check --impl x.so --shape 1048576x1048576x1x1",
                     "--shape: '1048576x1048576x1x1' asks for 2.2e+12 multiply-adds n_q n_k (d + d_v), more than the "
                     "2^35 = 3.44e+10 accepted");
  expect_usage_error("check --impl x.so --shape 1048576x1x1024x1024", "values in q, k, v and the output");
  // the FLUX.1 head of --profile models stays accepted
  const auto r = run_posverify("check --impl /no/such/x.so --shape 4608x4608x128x128");
  EXPECT_EQ(r.out.find("--shape"), std::string::npos) << r.out;
}

}  // namespace

}  // namespace cli_inputs_test
