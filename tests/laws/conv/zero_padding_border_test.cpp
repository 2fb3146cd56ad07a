// conv.zero_padding_border written once (laws/conv/zero_padding_border.h):
// the missing taps of a cell, the three checks on a constant picture, and a
// picture that is not constant failing the same-mask check.
#include "laws/conv/zero_padding_border.h"

#include <gtest/gtest.h>

#include <map>

namespace pv::laws::zero_padding_border {
namespace laws_conv_zero_padding_border_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(ZeroPaddingBorderLaw, MissingTapsOfCornerEdgeAndInterior) {
  EXPECT_EQ(missing_mask(4, 4, 0, 0), 0b001001111u);  // top row and left column of taps
  EXPECT_EQ(missing_mask(4, 4, 1, 1), 0u);
  EXPECT_EQ(missing_mask(4, 4, 3, 2), 0b111000000u);  // the bottom row of taps
  EXPECT_EQ(missing_mask(1, 1, 0, 0), 0b111101111u);  // all but the centre
}

conv3x3<double> positive_kernel() {
  auto k = conv3x3<double>::zeros(2, 1);
  for (std::size_t i = 0; i < k.w.size(); ++i) k.w[i] = 0.25 + 0.0625 * double(i % 5);
  k.bias = {0.5};
  return k;
}

TEST(ZeroPaddingBorderLaw, AConstantPictureMeetsEveryCheck) {
  const auto k = positive_kernel();
  const auto X = constant_picture<double>(5 * 4, {0.5, 0.75});
  std::map<check, int> kinds;
  const auto o = evaluate(k, X, 5, 4, true, [&](const entry<double>& e) {
    ++kinds[e.kind];
    EXPECT_TRUE(e.ok) << int(e.kind) << " at cell " << e.cell;
    return true;
  });
  EXPECT_TRUE(o.within);
  EXPECT_EQ(kinds[check::identity], 20);
  EXPECT_EQ(kinds[check::trace], 20 - 6);  // the 14 border cells of 5 x 4
  EXPECT_EQ(kinds[check::same_mask], 20);
}

TEST(ZeroPaddingBorderLaw, APictureThatIsNotConstantFails) {
  const auto k = positive_kernel();
  auto X = constant_picture<double>(5 * 4, {0.5, 0.75});
  X(2 * 4 + 2, 0) = 0.625;  // interior cell (2, 2) differs
  // stopping at the first failure: the identity of its first neighbour, cell (1, 1)
  std::size_t first_cell = 99;
  check first_kind = check::trace;
  auto o = evaluate(k, X, 5, 4, true, [&](const entry<double>& e) {
    if (!e.ok) first_cell = e.cell, first_kind = e.kind;
    return e.ok;
  });
  EXPECT_FALSE(o.within);
  EXPECT_EQ(first_cell, 5u);
  EXPECT_EQ(first_kind, check::identity);
  // going on: interior cells with the same (empty) mask differ too
  std::map<check, int> failed;
  o = evaluate(k, X, 5, 4, true, [&](const entry<double>& e) {
    if (!e.ok) ++failed[e.kind];
    return true;
  });
  EXPECT_GT(failed[check::identity], 0);
  EXPECT_GT(failed[check::same_mask], 0);
}

}  // namespace
}  // namespace laws_conv_zero_padding_border_test
}  // namespace pv::laws::zero_padding_border
