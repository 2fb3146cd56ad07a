// The normaliser probe (blackbox/normaliser.h): the sums of the exponentials
// simulated in a 16-bit format, what readings built by hand say, and the
// bfloat16-sum mutant through the whole check (attention.convex_hull names
// the format), with the correct sibling getting no such diagnosis.
#include "blackbox/key_weights.h"
#include "blackbox/normaliser.h"
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace blackbox_normaliser_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv::blackbox;

bool has(const std::string& f, const std::string& what) { return f.find(what) != std::string::npos; }

TEST(Normaliser, SixteenBitSumsOfOnesStallWhereTheFormatSays) {
  const std::vector<double> ones(4097, 1.0);
  EXPECT_EQ(accumulated_sum(ones, parse_accuracy("bfloat16")), 256);
  EXPECT_EQ(accumulated_sum(ones, parse_accuracy("float16")), 2048);
  EXPECT_EQ(accumulated_sum(ones, accuracy_class{}), 4097);  // no format: exact
  EXPECT_EQ(accumulated_sum(std::vector<double>(12, 1.0), parse_accuracy("bfloat16")), 12);
}

TEST(Normaliser, TheFormatWhoseSumMatchesIsNamed) {
  const auto bf = normaliser_finding({{12, 12}, {1025, 256}, {4097, 256}}, 0.07);
  EXPECT_TRUE(has(bf, "normaliser of 12 at n_k = 12, 256 at n_k = 1025 and 256 at n_k = 4097")) << bf;
  EXPECT_TRUE(has(bf, "the normaliser equals a sum of the exponentials accumulated in bfloat16 (simulated one "
                      "key at a time: 12, 256 and 256)")) << bf;
  EXPECT_EQ(normaliser_format({{12, 12}, {1025, 256}, {4097, 256}}, 0.07), "bfloat16");
  const auto f16 = normaliser_finding({{12, 12}, {1025, 1025}, {4097, 2048}}, 1e-3);
  EXPECT_TRUE(has(f16, "accumulated in float16 (simulated one key at a time: 12, 1025 and 2048)")) << f16;
  // right everywhere: nothing; wrong but like no format's sum: only what was read
  EXPECT_EQ(normaliser_finding({{12, 12}, {1025, 1025.5}, {4097, 4097}}, 1e-3), "");
  const auto other = normaliser_finding({{12, 6}, {1025, 512.5}, {4097, 2048.5}}, 1e-3);
  EXPECT_TRUE(has(other, "normaliser of 6 at n_k = 12")) << other;
  EXPECT_FALSE(has(other, "accumulated in")) << other;
  EXPECT_EQ(normaliser_format({{12, 6}, {1025, 512.5}, {4097, 2048.5}}, 1e-3), "");
}

TEST(Normaliser, AScaledWeightsWhyFollowsTheNormaliserProbe) {
  key_weight_reading r;
  r.n_k = 4;
  r.rising = true;
  r.exact = {0.1, 0.2, 0.3, 0.4};
  r.read = {0.05, 0.1, 0.15, 0.2};
  EXPECT_TRUE(key_weights_scaled({r}, 1e-3));
  const auto guess = key_weight_finding({r}, 1e-3);
  EXPECT_TRUE(has(guess, "a running sum not rescaled when the maximum grows?")) << guess;
  const auto told = key_weight_finding({r}, 1e-3, "its sum is accumulated in bfloat16");
  EXPECT_TRUE(has(told, "the normaliser is wrong: its sum is accumulated in bfloat16")) << told;
  EXPECT_FALSE(has(told, "rescaled")) << told;
  r.read = {0.0, 0.2, 0.3, 0.4};  // a key dropped is not a scaled normaliser
  EXPECT_FALSE(key_weights_scaled({r}, 1e-3));
}

TEST(Normaliser, ABfloat16SumOfTheExponentialsIsNamed) {
  const std::string dir = pv::plugin_test::out_dir("normaliser");
  const auto mutants = pv::plugin_test::plugin_map(POSVERIFY_MUTANT_PLUGINS);
  auto r = pv::test::run_posverify("check --impl " + mutants.at("panel_attn_bf16_eager_bf16_sum") +
                                   " --law 'attention.convex_hull[float32]' --out " + dir);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r.out, "with v = I sums to")) << r.out;
  EXPECT_TRUE(has(r.out, "diagnosis: the keys' weights read with v = I are softmax's relative to each other")) << r.out;
  EXPECT_TRUE(has(r.out, "the normaliser equals a sum of the exponentials accumulated in bfloat16")) << r.out;
  EXPECT_FALSE(has(r.out, "rescaled")) << r.out;
  // attention.shapes: the weights are right within bfloat16's tolerance at its shape, the long rows tell
  auto s = pv::test::run_posverify("check --impl " + mutants.at("panel_attn_bf16_eager_bf16_sum") +
                                   " --law 'attention.shapes[float32]' --out " + dir);
  EXPECT_EQ(s.code, 1) << s.out;
  EXPECT_TRUE(has(s.out, "are softmax's (n_k = ")) << s.out;
  EXPECT_TRUE(has(s.out, "the normaliser equals a sum of the exponentials accumulated in bfloat16")) << s.out;
}

TEST(Normaliser, TheCorrectSiblingGetsNoNormaliserDiagnosis) {
  const std::string dir = pv::plugin_test::out_dir("bf16-sum-correct");
  const auto panel = pv::plugin_test::plugin_map(POSVERIFY_PANEL_PLUGINS);
  for (const char* name : {"attn_bf16_eager", "flash_float"}) {
    auto r = pv::test::run_posverify("check --impl " + panel.at(name) + " --law attention.convex_hull --out " + dir);
    EXPECT_EQ(r.code, 0) << name << "\n" << r.out;
    EXPECT_FALSE(has(r.out, "accumulated in")) << name << "\n" << r.out;
    EXPECT_FALSE(has(r.out, "a normaliser of")) << name << "\n" << r.out;
  }
  // a wrong normaliser that is no 16-bit sum (a running sum not rescaled when
  // the maximum grows): the probe runs on its scaled weights and names no format
  const auto mutants = pv::plugin_test::plugin_map(POSVERIFY_MUTANT_PLUGINS);
  auto r = pv::test::run_posverify("check --impl " + mutants.at("size_no_rescale") +
                                   " --law 'attention.shapes[float32]' --out " + dir);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r.out, "the normaliser is wrong (a running sum not rescaled when the maximum grows?)")) << r.out;
  EXPECT_FALSE(has(r.out, "accumulated in")) << r.out;
}

}  // namespace

}  // namespace blackbox_normaliser_test
