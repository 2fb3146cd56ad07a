// The property registry (properties/runner.h): listed in the order of the ids,
// whatever order the translation units ran their initialisers in, so that
// verify's and the fault matrix's reports do not depend on how the build
// batched the files (a unity build or one object per file).
#include "properties/runner.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace properties_runner_test {  // this file's names: a unity build compiles several test files as one

namespace {

TEST(PropertyRegistry, ListedInTheOrderOfTheirIds) {
  const auto& r = pv::prop::property_registry();
  ASSERT_GT(r.size(), 10u) << "the properties are not linked into this binary";
  EXPECT_TRUE(std::is_sorted(r.begin(), r.end(), [](const auto& a, const auto& b) { return a.id < b.id; }));
}

}  // namespace

}  // namespace properties_runner_test
