// conv.flip_breaks_symmetry written once (laws/conv/flip_breaks_symmetry.h):
// a kernel heavier at the bottom breaks the flip law on a positive picture at
// both stages; a kernel symmetric top-to-bottom keeps it (the witness fails).
#include "laws/conv/flip_breaks_symmetry.h"

#include <gtest/gtest.h>

namespace pv::laws::flip_breaks_symmetry {
namespace laws_conv_flip_breaks_symmetry_test {  // this file's names: a unity build compiles several test files as one
namespace {

template <class T>
conv3x3<T> kernel(double top, double bottom) {
  auto k = conv3x3<T>::zeros(1, 2);
  for (std::size_t o = 0; o < 2; ++o)
    for (int dc = 0; dc < 3; ++dc) {
      k.at(o, 0, 0, dc) = T(top);
      k.at(o, 0, 1, dc) = T(0.5);
      k.at(o, 0, 2, dc) = T(bottom);
    }
  return k;
}

template <class T>
matrix<T> picture(std::size_t H, std::size_t W) {
  matrix<T> X(H * W, 1);
  for (std::size_t i = 0; i < X.rows; ++i) X(i, 0) = T(0.25 + 0.75 * double((i * 7) % 11) / 10);
  return X;
}

TEST(FlipBreaksSymmetryLaw, AnAsymmetricKernelBreaksTheFlipLaw) {
  const auto d = evaluate(kernel<double>(0.125, 0.5), picture<double>(4, 3), 4, 3);
  EXPECT_TRUE(d.conv.exceeds(margin)) << ref::to_decimal(d.conv.ratio, 6);
  EXPECT_TRUE(d.attention.exceeds(margin)) << ref::to_decimal(d.attention.ratio, 6);
  EXPECT_TRUE(d.holds());
  EXPECT_TRUE(evaluate(kernel<float>(0.125, 0.5), picture<float>(4, 3), 4, 3).holds());
}

TEST(FlipBreaksSymmetryLaw, ASymmetricKernelKeepsTheFlipLaw) {
  // top row = bottom row: conv(flip X) = flip conv(X) up to rounding
  const auto o = evaluate(kernel<double>(0.25, 0.25), picture<double>(4, 3), 4, 3);
  EXPECT_FALSE(o.conv.exceeds(margin)) << ref::to_decimal(o.conv.ratio, 6);
  EXPECT_FALSE(o.attention.exceeds(margin));
  EXPECT_FALSE(o.holds());
  EXPECT_LE(o.conv.ratio, 1);
}

}  // namespace
}  // namespace laws_conv_flip_breaks_symmetry_test
}  // namespace pv::laws::flip_breaks_symmetry
