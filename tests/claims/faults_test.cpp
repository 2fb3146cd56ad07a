// Planted faults (posverify/fault.h) flip the verdicts that depend on the
// broken formula: the claims have teeth.
#include "claims_test_util.h"

#include "posverify/fault.h"

namespace pv::claims::test {
namespace {

TEST(PlantedFaults, MissingAttentionScaleFlipsProblem5) {
  ASSERT_EQ(run_claim("p5.no-encoding").result, verdict::holds);
  pv::scoped_fault f(pv::fault::no_attention_scale);
  auto r = run_claim("p5.no-encoding");
  EXPECT_EQ(r.result, verdict::fails);
  ASSERT_TRUE(r.qualification.has_value());
  EXPECT_NE(r.qualification->find("disagreeing: abc_out"), std::string::npos) << *r.qualification;
}

TEST(PlantedFaults, RopeSineSignFlipsRopeRelative) {
  ASSERT_EQ(run_claim("rope.relative").result, verdict::holds);
  pv::scoped_fault f(pv::fault::rope_sine_sign);
  EXPECT_EQ(run_claim("rope.relative").result, verdict::fails);
  EXPECT_EQ(run_claim("flux.separate-offsets").result, verdict::fails);
}

TEST(PlantedFaults, SinusoidSwapFlipsAdditiveExample) {
  ASSERT_EQ(run_claim("additive.example").result, verdict::holds);
  pv::scoped_fault f(pv::fault::sinusoid_swap);
  EXPECT_EQ(run_claim("additive.example").result, verdict::fails);
  EXPECT_EQ(run_claim("sinusoid.timestep-embedding").result, verdict::fails);
}

TEST(PlantedFaults, FaultIsRemovedAfterScope) {
  { pv::scoped_fault f(pv::fault::no_attention_scale); }
  EXPECT_EQ(run_claim("p5.no-encoding").result, verdict::holds);
}

}  // namespace
}  // namespace pv::claims::test
