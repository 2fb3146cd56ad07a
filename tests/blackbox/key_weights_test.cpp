// The keys' weights read with v = I (blackbox/key_weights.h): what a reading
// says, on weights built by hand for each class of tile bug, and on the
// size-class mutants through the whole check (attention.shapes names their cause).
#include "blackbox/key_weights.h"
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace blackbox_key_weights_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv::blackbox;

/// Softmax weights of scores rising from 0 to 8 (equal when !rising), and
/// the reading of a kernel that gives them as `read` computes them.
key_weight_reading reading(std::size_t n, bool rising, const std::function<double(std::size_t, double)>& read) {
  key_weight_reading r;
  r.n_k = n;
  r.rising = rising;
  double z = 0;
  for (std::size_t j = 0; j < n; ++j) z += std::exp(rising ? 8.0 * double(j) / double(n - 1) - 8 : 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    r.exact.push_back(std::exp(rising ? 8.0 * double(j) / double(n - 1) - 8 : 0.0) / z);
    r.read.push_back(read(j, r.exact.back()));
  }
  return r;
}

TEST(KeyWeights, RightWeightsSayNothing) {
  auto right = [](std::size_t, double w) { return w * (1 + 1e-6); };
  EXPECT_EQ(key_weight_finding({reading(65, false, right), reading(65, true, right)}, 1e-3), "");
}

TEST(KeyWeights, KeysPastATileAreNamedAsDroppedFromThere) {
  // only the first 64 keys read: the rest get nothing, the first share it all
  auto first64 = [](std::size_t n) {
    return [n](std::size_t j, double w) { return j < 64 ? w * double(n) / 64 : 0.0; };
  };
  const auto f = key_weight_finding({reading(65, false, first64(65)), reading(131, false, first64(131))}, 1e-3);
  EXPECT_NE(f.find("at n_k = 65, key 64 gets no weight"), std::string::npos) << f;
  EXPECT_NE(f.find("at n_k = 131, keys 64 to 130 get no weight"), std::string::npos) << f;
  EXPECT_NE(f.find("only the first 64 keys are read"), std::string::npos) << f;
}

TEST(KeyWeights, TheLastKeyDroppedIsNamedSo) {
  auto last = [](std::size_t n) { return [n](std::size_t j, double w) { return j + 1 == n ? 0.0 : w; }; };
  const auto f = key_weight_finding({reading(65, false, last(65)), reading(131, false, last(131))}, 1e-3);
  EXPECT_NE(f.find("the last key is dropped"), std::string::npos) << f;
  EXPECT_EQ(f.find("only the first"), std::string::npos) << f;
  // dropped keys that are neither a tail nor the last: listed, no rule named
  auto two = [](std::size_t j, double w) { return j == 64 || j == 130 ? 0.0 : w; };
  const auto g = key_weight_finding({reading(131, false, two)}, 1e-3);
  EXPECT_NE(g.find("keys 64, 130 get no weight"), std::string::npos) << g;
  EXPECT_EQ(g.find("the last key is dropped"), std::string::npos) << g;
  EXPECT_EQ(g.find("only the first"), std::string::npos) << g;
}

TEST(KeyWeights, AWrongNormaliserAndBlocksScaledApartAreTold) {
  auto scaled = [](std::size_t, double w) { return 0.5582 * w; };
  auto right = [](std::size_t, double w) { return w; };
  const auto f = key_weight_finding({reading(257, false, right), reading(257, true, scaled)}, 1e-3);
  EXPECT_NE(f.find("at n_k = 257, every weight is softmax's times 0.5582 (rising scores)"), std::string::npos) << f;
  EXPECT_NE(f.find("the normaliser is wrong"), std::string::npos) << f;
  auto halves = [](std::size_t j, double w) { return j < 64 ? 28.67 * w : 0.5089 * w; };
  const auto g = key_weight_finding({reading(128, false, right), reading(128, true, halves)}, 1e-3);
  EXPECT_NE(g.find("blocks of keys [0, 64) and [64, 128) (rising scores)"), std::string::npos) << g;
  EXPECT_NE(g.find("28.67 and 0.5089 times softmax's"), std::string::npos) << g;
  EXPECT_NE(g.find("without their exp(m_part - m) weights"), std::string::npos) << g;
  // a factor within the tolerance is no finding; beyond it, one is
  auto near = [](std::size_t, double w) { return 1.0005 * w; };
  EXPECT_EQ(key_weight_finding({reading(64, true, near)}, 1e-3), "");
  EXPECT_NE(key_weight_finding({reading(64, true, near)}, 1e-4), "");
}

TEST(KeyWeights, NoiseOnEveryKeyIsNotCalledBlocks) {
  auto noisy = [](std::size_t j, double w) { return w * (1 + (j % 2 ? 0.05 : -0.05)); };
  const auto f = key_weight_finding({reading(64, true, noisy)}, 1e-3);
  EXPECT_NE(f.find("the weights differ from softmax's in 64 runs of keys"), std::string::npos) << f;
  EXPECT_EQ(f.find("blocks"), std::string::npos) << f;
}

// The size-class mutants through the check: attention.shapes names each one's
// cause from its keys' weights, where no accuracy class explained it.
TEST(KeyWeights, SizeMutantsAreNamedByTheirKeysWeights) {
  const std::string dir = pv::plugin_test::out_dir("key-weights");
  const auto mutants = pv::plugin_test::plugin_map(POSVERIFY_MUTANT_PLUGINS);
  const std::pair<const char*, const char*> cases[] = {
      {"size_drop_past_tile", "at n_k = 131, keys 64 to 130 get no weight: only the first 64 keys are read"},
      {"size_partial_tile", "at n_k = 131, keys 64, 130 get no weight"},
      {"size_no_rescale", "(rising scores): the keys are weighted right against each other but the normaliser is wrong"},
      {"size_split_weights", "blocks of keys [0, 64) and [64, 128) (rising scores) but each block is scaled"}};
  for (const auto& [m, expect] : cases) {
    auto r = pv::test::run_posverify("check --impl " + mutants.at(m) +
                                            " --law 'attention.shapes[float32]' --out " + dir);
    EXPECT_EQ(r.code, 1) << m << "\n" << r.out;
    EXPECT_NE(r.out.find(expect), std::string::npos) << m << "\n" << r.out;
  }
}

}  // namespace

}  // namespace blackbox_key_weights_test
