// The generators cover their ranges at every RapidCheck size:
// RapidCheck ramps the size from 0 to 100 over a run, and its inRange draws
// only near the low end at small sizes. Each generator is sampled here at
// sizes 0, 1, 5, 20, 50 and 100, with fixed seeds, and must reach the regions
// the properties rely on at each size.
#include "properties/generators.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace properties_generator_sizes_test {  // this file's names: a unity build compiles several test files as one

namespace {

const std::vector<int> kSizes = {0, 1, 5, 20, 50, 100};
constexpr int kDraws = 1000;

/// kDraws values of gen at `size`, from a fixed seed.
template <class T>
std::vector<T> sample(const rc::Gen<T>& gen, int size, std::uint64_t seed = 14) {
  rc::Random random(seed);
  std::vector<T> out;
  for (int i = 0; i < kDraws; ++i) out.push_back(gen(random.split(), size).value());
  return out;
}

template <class T, class F>
double fraction(const std::vector<T>& v, F pred) {
  int n = 0;
  for (const auto& x : v) n += pred(x) ? 1 : 0;
  return double(n) / double(v.size());
}

TEST(GeneratorSizes, RealIsSymmetricAndSpreadAtEverySize) {
  for (int size : kSizes) {
    const auto v = sample(pv::gen::real(-1.0, 1.0), size);
    // 3 draws in 20 are the edge cases -1, 1, 0; the rest uniform on the grid:
    // P(x > 0) = 1/20 + 17/40 = 0.475, and the same for x < 0.
    EXPECT_NEAR(fraction(v, [](double x) { return x > 0; }), 0.475, 0.06) << size;
    EXPECT_NEAR(fraction(v, [](double x) { return x < 0; }), 0.475, 0.06) << size;
    EXPECT_GT(fraction(v, [](double x) { return x > 0.5; }), 0.18) << size;
    EXPECT_LT(fraction(v, [](double x) { return x == -1.0; }), 0.1) << size;
  }
}

TEST(GeneratorSizes, PermutationCasesReachTwentyTokensAtEverySize) {
  for (int size : kSizes) {
    const auto v = sample(pv::gen::tokens({2, 20, 2, 16, false, true}), size);
    EXPECT_GT(fraction(v, [](const pv::matrix<double>& X) { return X.rows >= 12; }), 0.35) << size;
    EXPECT_GT(fraction(v, [](const pv::matrix<double>& X) { return X.rows == 20; }), 0.02) << size;
    EXPECT_GT(fraction(v, [](const pv::matrix<double>& X) { return X.cols >= 9; }), 0.4) << size;
  }
}

TEST(GeneratorSizes, GridsReachSixteenAndAreMostlyNonSquare) {
  for (int size : kSizes) {
    const auto v = sample(pv::gen::flux_grid(16), size);
    EXPECT_LT(fraction(v, [](const pv::gen::grid& g) { return g.h == 1 && g.w == 1; }), 0.02) << size;
    EXPECT_GT(fraction(v, [](const pv::gen::grid& g) { return g.h >= 6 && g.w >= 6; }), 0.4) << size;
    EXPECT_GT(fraction(v, [](const pv::gen::grid& g) { return g.h != g.w; }), 0.85) << size;
    EXPECT_GT(fraction(v, [](const pv::gen::grid& g) { return g.h == 16 || g.w == 16; }), 0.05) << size;
  }
}

TEST(GeneratorSizes, PositionsReachLargeValuesAtEverySize) {
  for (int size : kSizes) {
    const auto v = sample(pv::gen::position_int(), size);
    // One draw in four is anywhere up to 2^20; most of those exceed 2^19.
    EXPECT_GT(fraction(v, [](std::int64_t p) { return p >= (1 << 19); }), 0.08) << size;
    EXPECT_GT(fraction(v, [](std::int64_t p) { return p >= 32 && p < 64; }), 0.25) << size;
  }
}

}  // namespace

}  // namespace properties_generator_sizes_test
