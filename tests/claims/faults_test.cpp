// Planted faults (posverify/fault.h) flip the verdicts that depend on the
// broken formula: the claims have teeth.
#include "claims_test_util.h"

#include "numerics/fault.h"

namespace pv::claims::test {
namespace claims_faults_test {  // this file's names: a unity build compiles several test files as one
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

// Under circular padding the band is 0 and one value remains at
// every k; the claim used to keep holding with a typed sentence.
TEST(PlantedFaults, CircularPaddingFlipsConvPositionUnmeasured) {
  const auto good = run_claim("p6.conv-position-unmeasured");
  ASSERT_EQ(good.result, verdict::holds_qualified);
  ASSERT_TRUE(good.qualification.has_value());
  EXPECT_NE(good.qualification->find("k = 3: band 3, 49 distinct values"), std::string::npos)
      << *good.qualification;
  pv::scoped_fault f(pv::fault::conv_circular_padding);
  const auto r = run_claim("p6.conv-position-unmeasured");
  EXPECT_EQ(r.result, verdict::fails);
  ASSERT_TRUE(r.qualification.has_value());
  EXPECT_NE(r.qualification->find("k = 1: band 0, 1 distinct values"), std::string::npos)
      << *r.qualification;
  EXPECT_EQ(r.qualification->find("reaches exactly k"), std::string::npos) << *r.qualification;
}

// With q = k = (1, 0) a flipped sine is invisible; the second pair
// of vectors (both components non-zero) sees it.
TEST(PlantedFaults, RopeSineSignFlipsTheWorkedExamples) {
  for (const char* id : {"rope.example-30deg", "rope.distance-only", "carousel.c"}) {
    ASSERT_EQ(run_claim(id).result, verdict::holds) << id;
    pv::scoped_fault f(pv::fault::rope_sine_sign);
    const auto r = run_claim(id);
    EXPECT_EQ(r.result, verdict::fails) << id;
    ASSERT_TRUE(r.qualification.has_value()) << id;
    EXPECT_NE(r.qualification->find("(3/5, 4/5)"), std::string::npos) << *r.qualification;
  }
}

TEST(PlantedFaults, CausalMaskFlipsThePermutationClaims) {
  for (const char* id : {"perm.six-cells", "perm.word-order", "perm.picture-rows",
                         "p6.attention-only-blind"}) {
    ASSERT_NE(run_claim(id).result, verdict::fails) << id;
    pv::scoped_fault f(pv::fault::attention_causal_mask);
    EXPECT_EQ(run_claim(id).result, verdict::fails) << id;
  }
}

TEST(PlantedFaults, SwappedFluxAxesFlipFluxAxesAndSameRowCol) {
  pv::scoped_fault f(pv::fault::flux_axes_swapped);
  const auto axes = run_claim("flux.axes");
  EXPECT_EQ(axes.result, verdict::fails);
  EXPECT_EQ(int_array(axes, "block_start"), (std::vector<std::int64_t>{0, 72, 16}));
  EXPECT_EQ(run_claim("flux.same-row-col").result, verdict::fails);
}

TEST(PlantedFaults, IntegerExponentFlipsTheSpeedLadderClaims) {
  pv::scoped_fault f(pv::fault::speed_integer_exponent);
  for (const char* id : {"rope.multi-frequency", "carousel.d"}) EXPECT_EQ(run_claim(id).result, verdict::fails) << id;
}

// The bitwise study's conclusion reads the computed bound check: under a
// causal mask the sequential reorders leave the reorder bound, and both the
// sentence and the study's verdict say so.
TEST(PlantedFaults, BitwiseStudyConclusionFollowsTheBoundCheck) {
  claim_context ctx;
  auto verdict_of = [&] {
    for (auto& r : run_claims(ctx))
      if (r.id == "perm.six-cells") return r;
    throw std::runtime_error("perm.six-cells missing");
  };
  const auto good = verdict_of();
  const auto* study = good.extra.find("bitwise_study");
  ASSERT_NE(study, nullptr);
  EXPECT_NE(study->find("conclusion")->as_string().find("within the reorder bound"), std::string::npos);
  pv::scoped_fault f(pv::fault::attention_causal_mask);
  const auto bad = verdict_of();
  const auto* s2 = bad.extra.find("bitwise_study");
  ASSERT_NE(s2, nullptr);
  EXPECT_EQ(s2->find("conclusion")->as_string().find("(on the six-cell input within"), std::string::npos)
      << s2->find("conclusion")->as_string();
  EXPECT_EQ(s2->find("verdict")->as_string(), "disproved");
  EXPECT_EQ(bad.result, verdict::fails);
}

TEST(PlantedFaults, FaultIsRemovedAfterScope) {
  { pv::scoped_fault f(pv::fault::no_attention_scale); }
  EXPECT_EQ(run_claim("p5.no-encoding").result, verdict::holds);
}

}  // namespace
}  // namespace claims_faults_test
}  // namespace pv::claims::test
