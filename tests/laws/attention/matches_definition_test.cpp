// attention.matches_definition written once (laws/attention/matches_definition.h):
// pv::attention meets the direct formula in float32, float64 and hp, and a
// definition that is off (a missing 1/sqrt(d)) is caught.
#include "laws/attention/matches_definition.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pv::laws::matches_definition {
namespace laws_attention_matches_definition_test {  // this file's names: a unity build compiles several test files as one
namespace {

struct inputs {
  matrix<double> Q{3, 4}, K{5, 4}, V{5, 2};
  inputs() {
    for (std::size_t i = 0; i < Q.a.size(); ++i) Q.a[i] = std::sin(0.7 * double(i));
    for (std::size_t i = 0; i < K.a.size(); ++i) K.a[i] = 2 * std::cos(1.3 * double(i));
    for (std::size_t i = 0; i < V.a.size(); ++i) V.a[i] = double(i) - 3;
  }
};

template <class T>
outcome judge(const inputs& in, const definition& def) {
  return evaluate<T>(in.Q, in.K, in.V, def, [](const entry<T>&) { return true; });
}

TEST(MatchesDefinitionLaw, AttentionMeetsTheDirectFormula) {
  const inputs in;
  const auto def = define(in.Q, in.K, in.V);
  EXPECT_TRUE(judge<float>(in, def).within);
  EXPECT_TRUE(judge<double>(in, def).within);
  EXPECT_TRUE(judge<hp>(in, def).within);
  EXPECT_EQ(judge<float>(in, def).entries, 6u);
}

TEST(MatchesDefinitionLaw, AWrongDefinitionIsCaught) {
  const inputs in;
  // the formula without 1/sqrt(d)
  auto unscaled = define(in.Q, in.K, in.V);
  matrix<hp> K2 = convert_matrix<hp>(in.K);
  for (auto& x : K2.a) x *= 2;  // d = 4: scaling K by sqrt(d) drops the 1/sqrt(d)
  unscaled.value = direct(convert_matrix<hp>(in.Q), K2, convert_matrix<hp>(in.V));
  EXPECT_FALSE(judge<double>(in, unscaled).within);
  EXPECT_FALSE(judge<float>(in, unscaled).within);
  // the visitor sees the failing entry and may stop
  std::size_t seen = 0;
  evaluate<double>(in.Q, in.K, in.V, unscaled, [&](const entry<double>& e) {
    ++seen;
    return e.diff <= e.bound;
  });
  EXPECT_LT(seen, 6u);
  EXPECT_EQ(statement("x").substr(statement("x").size() - 3), "(x)");
}

}  // namespace
}  // namespace laws_attention_matches_definition_test
}  // namespace pv::laws::matches_definition
