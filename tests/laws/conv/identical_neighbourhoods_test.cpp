// conv.identical_neighbourhoods written once (laws/conv/identical_neighbourhoods.h):
// after make_identical() the two cells' outputs are bitwise equal at both
// stages; on the untouched picture they are not; far_cells keeps the distance.
#include "laws/conv/identical_neighbourhoods.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

namespace pv::laws::identical_neighbourhoods {
namespace laws_conv_identical_neighbourhoods_test {  // this file's names: a unity build compiles several test files as one
namespace {

template <class T>
conv3x3<T> kernel() {
  auto k = conv3x3<T>::zeros(2, 2);
  for (std::size_t i = 0; i < k.w.size(); ++i) k.w[i] = T(std::sin(1.9 * double(i)));
  k.bias = {T(0.5), T(-0.25)};
  return k;
}

matrix<double> picture(std::size_t cells) {
  matrix<double> X(cells, 2);
  for (std::size_t i = 0; i < X.a.size(); ++i) X.a[i] = std::cos(0.77 * double(i) + 0.1);
  return X;
}

TEST(IdenticalNeighbourhoodsLaw, FarCellsKeepTheirDistance) {
  const auto far = far_cells(5, 6, 8);  // cell (1, 2)
  ASSERT_FALSE(far.empty());
  for (auto c : far)
    EXPECT_GE(std::max(std::abs(long(c / 6) - 1), std::abs(long(c % 6) - 2)), min_distance) << c;
  EXPECT_EQ(far.size(), 10u);  // 30 cells but the 4 x 5 within distance 2 of (1, 2)
}

TEST(IdenticalNeighbourhoodsLaw, IdenticalNeighbourhoodsGiveIdenticalRows) {
  const std::size_t H = 5, W = 6, a = 0, b = 27;  // a corner and a cell of the last row
  auto X = picture(H * W);
  const auto k = kernel<float>();
  const auto before = evaluate(k, convert_matrix<float>(X), H, W, a, b);
  EXPECT_TRUE(before.conv.found);
  EXPECT_FALSE(before.holds());
  make_identical(X, H, W, a, b);
  const auto after = evaluate(k, convert_matrix<float>(X), H, W, a, b);
  EXPECT_FALSE(after.conv.found);
  EXPECT_FALSE(after.attention.found);
  EXPECT_TRUE(after.holds());
  EXPECT_TRUE(evaluate(kernel<double>(), X, H, W, a, b).holds());
}

}  // namespace
}  // namespace laws_conv_identical_neighbourhoods_test
}  // namespace pv::laws::identical_neighbourhoods
