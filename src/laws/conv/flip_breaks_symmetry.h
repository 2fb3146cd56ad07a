// conv.flip_breaks_symmetry (CLAIMS.md "p5.conv-first", "p6.conv-carries-
// neighbours"), written once: attention alone only flips its outputs when the
// grid is flipped upside down, but a zero-padded 3 x 3 convolution in front
// that is not symmetric top-to-bottom makes the result depend on up and down.
//
// The law is a break: on a case it holds when, at both stages (the
// convolution, and self-attention of its output), some entry of the flipped
// input's result differs from the flipped result by more than `margin` times
// the sum of the two evaluations' a-priori errors (conv_error_bound, Higham
// 3.5; attention_forward_bound with the conv errors as input errors).
// Judge: the property (src/properties/conv/flip_breaks_symmetry.cpp), which draws
// the kernels (bottom row above the top row) and the positive pictures.
#pragma once

#include "laws/largest_excess.h"
#include "numerics/attention.h"
#include "numerics/conv.h"
#include "numerics/error_bounds.h"
#include "numerics/permutation.h"

#include <string>

namespace pv::laws::flip_breaks_symmetry {

inline constexpr const char* id = "conv.flip_breaks_symmetry";

/// The margin by which the difference must exceed the rounding bound.
inline constexpr int margin = 16;

inline std::string statement() {
  return "a zero-padded 3 x 3 convolution whose bottom kernel row exceeds its top row "
         "(w[2][dc] - w[0][dc] >= 1/8 for every column and channel pair) breaks the flip law: "
         "conv(flip X) != flip conv(X), and attention(conv(flip X)) != flip "
         "attention(conv(X)), for pictures of H >= 2 rows (H x W up to 5 x 5, any shape) with "
         "positive entries in [1/4, 1]. For such inputs the exact convolution difference at "
         "the bottom row is (w2 - w0) . (0 - X(row 1)), at least 1/32 in size: the generic "
         "condition makes the break provable at the convolution stage";
}

inline std::string tolerance_rule() {
  return "both stages: the largest difference must exceed 16 times the sum of the two "
         "evaluations' a-priori errors (conv: gamma_{k+1} (|b| + sum |w x|), Higham 3.5; "
         "attention: attention_forward_bound with the conv errors as input errors); in hp the "
         "bound is at the reference precision";
}

/// The witness at each stage.
struct outcome {
  largest_excess conv, attention;
  bool holds() const { return conv.exceeds(margin) && attention.exceeds(margin); }
};

/// evaluate(case, T): the kernel k and the picture X (H x W cells, rows in
/// row-major grid order), both in T.
template <class T>
outcome evaluate(const conv3x3<T>& k, const matrix<T>& X, std::size_t H, std::size_t W) {
  const auto flip = vertical_flip(H, W);
  const auto FX = permute_rows(X, flip);
  const auto Y1 = apply_conv(k, FX, H, W);  // conv of the flipped picture
  const auto Y2 = apply_conv(k, X, H, W);
  const auto FY2 = permute_rows(Y2, flip);  // the flipped conv output
  const auto B1 = conv_error_bound(k, FX, H, W), B2 = conv_error_bound(k, X, H, W);
  matrix<hp> Bc = permute_rows(B2, flip);
  for (std::size_t i = 0; i < Bc.a.size(); ++i) Bc.a[i] += B1.a[i];
  outcome o;
  o.conv = excess_of(Y1, FY2, Bc);
  // With attention after the convolution (self-attention of the conv output).
  const auto A1 = attention(Y1, Y1, Y1);
  const auto A2 = permute_rows(attention(Y2, Y2, Y2), flip);
  auto BA1 = attention_forward_bound(Y1, Y1, Y1, B1, B1, B1);
  const auto BA2 = permute_rows(attention_forward_bound(Y2, Y2, Y2, B2, B2, B2), flip);
  for (std::size_t i = 0; i < BA1.a.size(); ++i) BA1.a[i] += BA2.a[i];
  o.attention = excess_of(A1, A2, BA1);
  return o;
}

}  // namespace pv::laws::flip_breaks_symmetry
