// The non-finite diagnosis (blackbox/nonfinite.h): what the four probes say,
// on readings built by hand for each cause, and on the mutants through the
// whole check (a NaN from exp overflowing, a NaN on tied scores), with a
// correct kernel getting no such diagnosis.
#include "blackbox/nonfinite.h"
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace blackbox_nonfinite_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv::blackbox;

/// The four probes of a float32 kernel at 12 keys, finite or not as given
/// (ties at 0, rising 0..8, rising shifted by 100, ties at 100).
std::vector<nonfinite_reading> readings(bool t0, bool r0, bool rs, bool ts, bool nan = true) {
  std::vector<nonfinite_reading> v(4);
  v[0] = {score_probe::ties, 0, 0, 0, true, t0, !t0 && nan};
  v[1] = {score_probe::rising, 0, 8, 0, true, r0, !r0 && nan};
  v[2] = {score_probe::rising_shifted, 100, 108, 100, true, rs, !rs && nan};
  v[3] = {score_probe::ties_shifted, 100, 100, 100, true, ts, !ts && nan};
  return v;
}

bool has(const std::string& f, const std::string& what) { return f.find(what) != std::string::npos; }

TEST(NonFinite, OverflowAfterAShiftNamesTheMissingMaximum) {
  const auto f = nonfinite_finding(readings(true, true, false, false), {4, {0, 1, 2, 3}});
  EXPECT_TRUE(has(f, "finite with scores in [0, 8], NaN with the same scores shifted by +100, to [100, 108] "
                     "(softmax is unchanged by a shift)")) << f;
  EXPECT_TRUE(has(f, "finite at 0, NaN at 100")) << f;
  EXPECT_TRUE(has(f, "exp overflows; the row maximum is not subtracted before exp")) << f;
  EXPECT_FALSE(has(f, "ties are mishandled")) << f;
  EXPECT_FALSE(has(f, "in the failing call")) << f;  // every row: nothing to add
  // infinities rather than NaN are called so
  const auto g = nonfinite_finding(readings(true, true, false, false, false), {4, {}});
  EXPECT_TRUE(has(g, "infinite with the same scores shifted")) << g;
}

TEST(NonFinite, NaNOnTiesOnlyNamesTies) {
  const auto f = nonfinite_finding(readings(false, true, true, false), {16, {0, 1, 2, 5}});
  EXPECT_TRUE(has(f, "NaN when every score of a row ties (q = 0: every score 0), finite when the scores differ "
                     "(scores in [0, 8], and the same scores shifted by +100, to [100, 108])")) << f;
  EXPECT_TRUE(has(f, "ties are mishandled")) << f;
  EXPECT_FALSE(has(f, "not subtracted")) << f;
  EXPECT_TRUE(has(f, "in the failing call, rows 0 to 2, 5 of 16 are non-finite")) << f;
  // rising scores that tie as sent prove nothing about ties
  auto r = readings(false, true, true, false);
  r[1].distinct = false;
  const auto g = nonfinite_finding(r, {16, {}});
  EXPECT_FALSE(has(g, "ties are mishandled")) << g;
  EXPECT_TRUE(has(g, "non-finite with q = 0: every score 0 and every score 100; finite with")) << g;
}

TEST(NonFinite, EveryOrNoProbeNonFiniteIsSaidAsSuch) {
  const auto f = nonfinite_finding(readings(false, false, false, false), {2, {1}});
  EXPECT_TRUE(has(f, "non-finite on every probe")) << f;
  EXPECT_FALSE(has(f, "not subtracted")) << f;
  EXPECT_FALSE(has(f, "ties are mishandled")) << f;
  EXPECT_TRUE(has(f, "in the failing call, row 1 of 2 is non-finite")) << f;
  const auto g = nonfinite_finding(readings(true, true, true, true), {2, {0, 1}});
  EXPECT_TRUE(has(g, "every probe at this shape is finite")) << g;
  EXPECT_FALSE(has(g, "not subtracted")) << g;
  EXPECT_EQ(nonfinite_finding({}, {}), "");
}

// The mutants through the check: the law that catches each names why.
TEST(NonFinite, MutantsNaNIsNamedByTheProbes) {
  const std::string dir = pv::plugin_test::out_dir("nonfinite");
  const auto mutants = pv::plugin_test::plugin_map(POSVERIFY_MUTANT_PLUGINS);
  const std::pair<const char*, const char*> cases[][2] = {
      {{"attn_no_max_sub", "attention.reference[float32]"},
       {"exp overflows; the row maximum is not subtracted before exp", "ties are mishandled"}},
      {{"panel_attn_f16_no_max_sub", "attention.reference[float32]"},
       {"exp overflows; the row maximum is not subtracted before exp", "ties are mishandled"}},
      {{"size_nan_on_ties", "attention.shapes[float32]"},
       {"NaN when every score of a row ties (q = 0: every score 0), finite when the scores differ",
        "not subtracted"}}};
  for (const auto& c : cases) {
    const std::string m = c[0].first, law = c[0].second, expect = c[1].first, not_expect = c[1].second;
    auto r = pv::test::run_posverify("check --impl " + mutants.at(m) + " --law '" + law + "' --out " + dir);
    EXPECT_EQ(r.code, 1) << m << "\n" << r.out;
    EXPECT_TRUE(has(r.out, "non-finite-output")) << m << "\n" << r.out;
    EXPECT_TRUE(has(r.out, "diagnosis: the probes at this shape (v = ones): ")) << m << "\n" << r.out;
    EXPECT_TRUE(has(r.out, expect)) << m << "\n" << r.out;
    EXPECT_FALSE(has(r.out, not_expect)) << m << "\n" << r.out;
  }
}

// An entry never written (still the buffer's NaN fill) is named so by the
// sandbox: no probe is run for it.
TEST(NonFinite, AnEntryNeverWrittenRunsNoProbe) {
  const std::string dir = pv::plugin_test::out_dir("nonfinite-unwritten");
  const auto mutants = pv::plugin_test::plugin_map(POSVERIFY_MUTANT_PLUGINS);
  auto r = pv::test::run_posverify("check --impl " + mutants.at("size_prefill_grid") +
                                   " --law 'attention.shapes[float32]' --out " + dir);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r.out, "never written")) << r.out;
  EXPECT_FALSE(has(r.out, "the probes at this shape")) << r.out;
}

TEST(NonFinite, ACorrectKernelGetsNoNonFiniteDiagnosis) {
  const std::string dir = pv::plugin_test::out_dir("nonfinite-correct");
  const auto panel = pv::plugin_test::plugin_map(POSVERIFY_PANEL_PLUGINS);
  for (const char* name : {"flash_float", "attn_f16_accum"}) {
    auto r = pv::test::run_posverify("check --impl " + panel.at(name) +
                                     " --law attention.reference --law attention.shapes --out " + dir);
    EXPECT_EQ(r.code, 0) << name << "\n" << r.out;
    EXPECT_FALSE(has(r.out, "the probes at this shape")) << name << "\n" << r.out;
    EXPECT_FALSE(has(r.out, "non-finite")) << name << "\n" << r.out;
  }
}

}  // namespace

}  // namespace blackbox_nonfinite_test
