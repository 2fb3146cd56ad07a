// The property checks have teeth: planting a fault in the numerics
// (src/numerics/fault.h) makes the laws that the fault breaks fail, with a
// counterexample and a replay command that reproduces the failure; without
// the fault the same laws pass.
#include "numerics/fault.h"
#include "properties/runner.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <sys/wait.h>

namespace properties_planted_fault_test {  // this file's names: a unity build compiles several test files as one

namespace {

constexpr int kCases = 200;

pv::property_result run(const std::string& id, const std::string& reproduce = "") {
  const auto* p = pv::prop::find_property(id);
  if (!p) throw std::runtime_error("no property " + id);
  pv::prop::run_options o;
  o.cases = kCases;
  o.seed = 1;
  o.reproduce = reproduce;
  return pv::prop::run_property(*p, o);
}

/// The reproduce string: the last word of "posverify replay ID HEX".
std::string hex_of(const std::string& replay) { return replay.substr(replay.rfind(' ') + 1); }

struct fault_case {
  pv::fault f;
  const char* fault_name;
  const char* id;
};

void PrintTo(const fault_case& c, std::ostream* os) { *os << c.fault_name << " -> " << c.id; }

class planted_fault : public ::testing::TestWithParam<fault_case> {};

TEST_P(planted_fault, law_fails_with_counterexample_and_replay) {
  const auto& c = GetParam();
  pv::scoped_fault planted(c.f);
  const auto r = run(c.id);
  ASSERT_EQ(r.verdict, pv::verdict::failed) << c.id << " did not notice " << c.fault_name;
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_FALSE(r.counterexample->empty());
  ASSERT_TRUE(r.replay.has_value());
  EXPECT_EQ(r.replay->rfind(std::string("posverify replay ") + c.id + " ", 0), 0u) << *r.replay;
  // Replaying the reproduce string under the same fault fails again, on the
  // same (shrunk) counterexample.
  const auto again = run(c.id, hex_of(*r.replay));
  EXPECT_EQ(again.verdict, pv::verdict::failed);
  ASSERT_TRUE(again.counterexample.has_value());
  EXPECT_EQ(*again.counterexample, *r.counterexample);
}

TEST_P(planted_fault, law_passes_without_the_fault) {
  const auto& c = GetParam();
  ASSERT_EQ(pv::planted_fault(), pv::fault::none);
  const auto r = run(c.id);
  EXPECT_EQ(r.verdict, pv::verdict::passed) << (r.counterexample ? *r.counterexample : "");
  EXPECT_GE(r.cases, kCases);
}

INSTANTIATE_TEST_SUITE_P(
    laws, planted_fault,
    ::testing::Values(
        fault_case{pv::fault::no_attention_scale, "no_attention_scale", "attention.matches_definition"},
        fault_case{pv::fault::rope_sine_sign, "rope_sine_sign", "rope.shift_invariance"},
        fault_case{pv::fault::rope_sine_sign, "rope_sine_sign", "rope.attention_translation_invariance"},
        fault_case{pv::fault::rope_sine_sign, "rope_sine_sign", "flux.same_row_col"},
        fault_case{pv::fault::rope_sine_sign, "rope_sine_sign", "flux.per_axis_shift"},
        fault_case{pv::fault::sinusoid_swap, "sinusoid_swap", "sinusoid.linear_shift"},
        fault_case{pv::fault::conv_circular_padding, "conv_circular_padding", "conv.zero_padding_border"},
        fault_case{pv::fault::conv_circular_padding, "conv_circular_padding",
                   "conv.identical_neighbourhoods"},
        fault_case{pv::fault::rope_position_off_by_one, "rope_position_off_by_one",
                   "flux.text_identity"},
        // The two symmetry laws had never been shown to fail.
        fault_case{pv::fault::attention_causal_mask, "attention_causal_mask",
                   "attention.permutation_equivariance"},
        fault_case{pv::fault::positions_ignored, "positions_ignored",
                   "encoding.breaks_permutation_symmetry"}),
    [](const ::testing::TestParamInfo<fault_case>& i) {
      std::string s = std::string(i.param.fault_name) + "_" + i.param.id;
      for (auto& ch : s)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return s;
    });

// Not every fault breaks every law: without the 1/sqrt(d) scale attention is
// still permutation equivariant, so that law must keep passing (it is not the
// law that catches this fault; attention.matches_definition is).
TEST(planted_fault_scope, permutation_law_survives_a_missing_scale) {
  pv::scoped_fault planted(pv::fault::no_attention_scale);
  EXPECT_EQ(run("attention.permutation_equivariance").verdict, pv::verdict::passed);
}

// A constant extra turn of some pairs keeps every rotated dot product a
// function of m - n: shift invariance cannot see the off-by-one position,
// only the text-identity law (position 0 must not turn) does.
TEST(planted_fault_scope, shift_invariance_survives_a_constant_position_offset) {
  pv::scoped_fault planted(pv::fault::rope_position_off_by_one);
  EXPECT_EQ(run("rope.shift_invariance").verdict, pv::verdict::passed);
  EXPECT_EQ(run("flux.text_identity").verdict, pv::verdict::failed);
}

// The replay command printed for a failure names a case the binary itself
// accepts and reruns: the planted fault lives only in this process, so in the
// binary that one case does not fail, and RapidCheck's reproduce mode reports
// "Reproduced result is not a failure": verdict not-reproduced, and exit 2,
// like any replay string that reproduces no failure (it names no failing
// case, so it is bad input, not a failure of the binary's laws).
TEST(planted_fault_scope, replay_command_runs_in_the_binary) {
  const char* bin = std::getenv("POSVERIFY_BIN");
  if (!bin) GTEST_SKIP() << "POSVERIFY_BIN not set (run through ctest)";
  std::string hex;
  {
    pv::scoped_fault planted(pv::fault::rope_sine_sign);
    const auto r = run("rope.shift_invariance");
    ASSERT_EQ(r.verdict, pv::verdict::failed);
    hex = hex_of(*r.replay);
  }
  const std::string cmd = std::string(bin) + " replay rope.shift_invariance " + hex + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  ASSERT_TRUE(pipe);
  std::string out;
  std::array<char, 256> buf{};
  while (std::fgets(buf.data(), buf.size(), pipe.get())) out += buf.data();
  const int status = pclose(pipe.release());
  ASSERT_TRUE(WIFEXITED(status)) << out;
  EXPECT_EQ(WEXITSTATUS(status), 2) << out;
  EXPECT_NE(out.find("rope.shift_invariance"), std::string::npos) << out;
  EXPECT_NE(out.find("not-reproduced"), std::string::npos) << out;
  EXPECT_NE(out.find("not a failure"), std::string::npos) << out;
  // A corrupted reproduce string is bad input: exit 2.
  const std::string bad = std::string(bin) + " replay rope.shift_invariance " + hex + "zz 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe2(popen(bad.c_str(), "r"), pclose);
  ASSERT_TRUE(pipe2);
  while (std::fgets(buf.data(), buf.size(), pipe2.get())) {
  }
  const int status2 = pclose(pipe2.release());
  ASSERT_TRUE(WIFEXITED(status2));
  EXPECT_EQ(WEXITSTATUS(status2), 2);
}

}  // namespace

}  // namespace properties_planted_fault_test
