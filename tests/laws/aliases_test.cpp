// The table of retired law ids (laws/aliases.h): a retired id maps to today's,
// with its qualifier; other ids, and ids that only begin like a retired one,
// stay as they are.
#include "laws/aliases.h"

#include <gtest/gtest.h>

namespace pv::laws {
namespace laws_aliases_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(LawAliases, RetiredIdsMapToTodaysWithTheirQualifier) {
  EXPECT_EQ(current_id("sinusoid.shift_map"), "sinusoid.linear_shift");
  EXPECT_EQ(current_id("sinusoid.shift_map[float32]"), "sinusoid.linear_shift[float32]");
  EXPECT_EQ(current_id("sinusoid.linear_shift[float64]"), "sinusoid.linear_shift[float64]");
  EXPECT_EQ(current_id("sinusoid.shift_mapping"), "sinusoid.shift_mapping");
  EXPECT_EQ(current_id("sinusoid.shift"), "sinusoid.shift");
  EXPECT_EQ(current_id(""), "");
  for (const auto& a : aliases) EXPECT_NE(std::string(a.old_id), std::string(a.current_id));
}

TEST(LawAliases, TheCheckNamesOfRopeAndFluxLawsMapToTheOneId) {
  EXPECT_EQ(current_id("rope.attention_translation"), "rope.attention_translation_invariance");
  EXPECT_EQ(current_id("rope.attention_translation[llama-64/float32]"),
            "rope.attention_translation_invariance[llama-64/float32]");
  // today's id begins like the retired one: it stays as it is
  EXPECT_EQ(current_id("rope.attention_translation_invariance"), "rope.attention_translation_invariance");
  EXPECT_EQ(current_id("rope.attention_translation_invariance[float64]"),
            "rope.attention_translation_invariance[float64]");
  EXPECT_EQ(current_id("rope.flux.per_axis_shift"), "flux.per_axis_shift");
  EXPECT_EQ(current_id("rope.flux.per_axis_shift[flux-3axis/float64]"), "flux.per_axis_shift[flux-3axis/float64]");
  EXPECT_EQ(current_id("rope.flux.same_row_col[flux-3axis/float32]"), "flux.same_row_col[flux-3axis/float32]");
  EXPECT_EQ(current_id("rope.flux.text_ids_identity"), "flux.text_identity");
  EXPECT_EQ(current_id("rope.flux.text_ids_identity[flux-3axis/float32]"), "flux.text_identity[flux-3axis/float32]");
  EXPECT_EQ(current_id("rope.flux.model_grid"), "flux.model_grid");
  EXPECT_EQ(current_id("rope.flux.nonsquare_grid[flux-3axis/float64]"), "flux.nonsquare_grid[flux-3axis/float64]");
  // laws that kept their id
  EXPECT_EQ(current_id("rope.reference[llama-64/float32]"), "rope.reference[llama-64/float32]");
  EXPECT_EQ(current_id("rope.shift_invariance"), "rope.shift_invariance");
}

}  // namespace
}  // namespace laws_aliases_test
}  // namespace pv::laws
