// encoding.breaks_permutation_symmetry written once
// (laws/encoding/breaks_permutation_symmetry.h): with RoPE or the additive
// sinusoid a swap of two generic tokens moves the outputs far beyond
// rounding; the identity permutation does not.
#include "laws/encoding/breaks_permutation_symmetry.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pv::laws::breaks_permutation_symmetry {
namespace laws_encoding_breaks_permutation_symmetry_test {  // this file's names: a unity build compiles several test files as one
namespace {

matrix<double> tokens() {
  matrix<double> X(4, 6);
  for (std::size_t i = 0; i < X.a.size(); ++i) {
    const double m = 0.25 + 0.75 * std::abs(std::sin(2.3 * double(i) + 0.4));
    X.a[i] = (i * 5) % 3 == 0 ? -m : m;
  }
  return X;
}

TEST(BreaksPermutationSymmetryLaw, EncodedPositionsBreakTheSymmetry) {
  const permutation swap = {1, 0, 2, 3};
  for (const bool rope : {true, false}) {
    const encoding enc{rope, pairing::adjacent, 6, 10000};
    const auto f = evaluate<float>(enc, tokens(), swap, 2);
    EXPECT_TRUE(f.exceeds(margin)) << (rope ? "RoPE " : "sinusoid ") << ref::to_decimal(f.ratio, 6);
    const auto d = evaluate<double>(enc, tokens(), swap, 2);
    EXPECT_TRUE(d.exceeds(margin)) << (rope ? "RoPE " : "sinusoid ") << ref::to_decimal(d.ratio, 6);
    EXPECT_GT(d.ratio, f.ratio);  // the finer type, the smaller the bound
  }
}

TEST(BreaksPermutationSymmetryLaw, TheIdentityLeavesNoWitness) {
  const permutation id_perm = {0, 1, 2, 3};
  for (const bool rope : {true, false}) {
    const auto x = evaluate<double>({rope, pairing::halves, 6, 100}, tokens(), id_perm, 0);
    EXPECT_FALSE(x.exceeds(margin));
    EXPECT_EQ(x.diff, 0);
  }
}

}  // namespace
}  // namespace laws_encoding_breaks_permutation_symmetry_test
}  // namespace pv::laws::breaks_permutation_symmetry
