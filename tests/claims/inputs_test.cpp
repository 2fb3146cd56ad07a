// The fixed inputs of the claims (src/claims/inputs.h).
#include "claims/inputs.h"

#include <gtest/gtest.h>

namespace pv::claims {
namespace claims_inputs_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(ClaimsInputs, FixedInputsAreExactAndDeterministic) {
  auto X = fixed_tokens(6, 4);
  for (double v : X.a) {
    EXPECT_EQ(static_cast<double>(static_cast<float>(v)), v);  // exact in float
    EXPECT_EQ(v * 4, static_cast<double>(static_cast<long>(v * 4)));
  }
  auto p = fixed_permutation(64);
  EXPECT_TRUE(is_permutation_of_n(p));
  EXPECT_EQ(p, fixed_permutation(64));
  EXPECT_NE(p, fixed_permutation(64, 7));
}

}  // namespace
}  // namespace claims_inputs_test
}  // namespace pv::claims
