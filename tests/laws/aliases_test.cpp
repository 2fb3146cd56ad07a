// The table of retired law ids (laws/aliases.h): a retired id maps to today's,
// with its qualifier; other ids, and ids that only begin like a retired one,
// stay as they are.
#include "laws/aliases.h"

#include <gtest/gtest.h>

namespace pv::laws {
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

}  // namespace
}  // namespace pv::laws
