// The writers of the lists a diagnosis names (core/ranges.h): index ranges
// and "a, b and c".
#include "core/ranges.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

namespace core_ranges_test {  // this file's names: a unity build compiles several test files as one

TEST(TextRanges, RunsOfConsecutiveIndicesBecomeRanges) {
  EXPECT_EQ(pv::text::ranges(std::vector<std::size_t>{0, 1, 2, 3, 7}), "0-3, 7");
  EXPECT_EQ(pv::text::ranges(std::vector<int>{64, 65, 66, 130}, " to "), "64 to 66, 130");
  EXPECT_EQ(pv::text::ranges(std::vector<int>{}, "-", "no key"), "no key");
  EXPECT_EQ(pv::text::ranges(std::vector<int>{1, 3, 5, 7}, "-", "none", 2), "1, 3, ...");
}

TEST(TextListed, ItemsAreJoinedWithAndBeforeTheLast) {
  EXPECT_EQ(pv::text::listed({}), "");
  EXPECT_EQ(pv::text::listed({"a"}), "a");
  EXPECT_EQ(pv::text::listed({"a", "b"}), "a and b");
  EXPECT_EQ(pv::text::listed({"[0, 64)", "[64, 128)", "[128, 257)"}), "[0, 64), [64, 128) and [128, 257)");
}

}  // namespace core_ranges_test
