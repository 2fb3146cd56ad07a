// The float32 tolerances alone are tight enough to catch the planted faults:
// for each fault, the float32 discrepancy exceeds the float32 a-priori bound
// (src/numerics/error_bounds.h) on nearly every random input, not only the
// high-precision check. And without the fault the same bound always holds.
#include "numerics/numerics.h"
#include "properties/generators.h"

#include <gtest/gtest.h>

#include <functional>

namespace properties_bound_teeth_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv;

/// Runs `trial` on inputs drawn from `n` fixed seeds and returns how many
/// trials reported "bound exceeded".
int exceeded(int n, const std::function<bool(int)>& trial) {
  int k = 0;
  for (int s = 0; s < n; ++s) k += trial(s) ? 1 : 0;
  return k;
}

/// One RoPE shift-invariance trial in float32: true if |a - b| > bound.
bool rope_trial(int seed) {
  const auto spec = gen::rope_1d(2, 16)(rc::Random(seed), 100).value();
  const auto QK = gen::generic_tokens({2, 2, spec.d, spec.d, true})(rc::Random(seed + 1), 100).value();
  const auto L = gen::layout<float>(spec);
  const auto X = convert_matrix<float>(QK);
  const double m = seed % 50, n = (seed * 7) % 50, s = 1 + seed % 13, ms = m + s, ns = n + s;
  const float a = rope_dot(L, X.row(0), &m, X.row(1), &n);
  const float b = rope_dot(L, X.row(0), &ms, X.row(1), &ns);
  const hp bound = rope_dot_error_bound(L, X.row(0), &m, X.row(1), &n) +
                   rope_dot_error_bound(L, X.row(0), &ms, X.row(1), &ns);
  return abs(convert<hp>(a) - convert<hp>(b)) > bound;
}

TEST(bound_teeth, float_rope_bound_catches_sine_sign) {
  EXPECT_EQ(exceeded(300, rope_trial), 0);
  scoped_fault f(fault::rope_sine_sign);
  EXPECT_GE(exceeded(300, rope_trial), 285);
}

/// One sinusoid linear-shift trial in float32.
bool sinusoid_trial(int seed) {
  const auto spec = gen::rope_1d(2, 16, true)(rc::Random(seed), 100).value();
  const auto w = geometric_speeds<float>(spec.d, float(spec.theta));
  const double m = seed % 40, k = 1 + seed % 9;
  const auto P = sinusoid_with_speeds<float>({m, m + k}, w);
  const auto M = sinusoid_shift_map<float>(w, k);
  const auto E = sinusoid_error<float>({m, m + k}, w);
  const std::vector<hp> ep(E.row(0), E.row(0) + E.cols);
  bool out = false;
  for (std::size_t r = 0; r < M.rows; ++r) {
    std::vector<hp> eM(M.cols, hp(0));
    eM[2 * (r / 2)] = eM[2 * (r / 2) + 1] = trig_of_angle_error<float>(k, w[r / 2]);
    const float mp = dot(M.row(r), P.row(0), M.cols);
    const hp bound = dot_error_bound(M.row(r), eM, P.row(0), ep, M.cols) + E(1, r);
    out = out || abs(convert<hp>(P(1, r)) - convert<hp>(mp)) > bound;
  }
  return out;
}

TEST(bound_teeth, float_sinusoid_bound_catches_swap) {
  EXPECT_EQ(exceeded(300, sinusoid_trial), 0);
  scoped_fault f(fault::sinusoid_swap);
  EXPECT_GE(exceeded(300, sinusoid_trial), 285);
}

/// One attention trial in float32 against the exact hp attention (computed
/// with the scale, whatever the fault says) and the float32 forward bound.
bool attention_trial(int seed) {
  const auto X0 = gen::generic_tokens({2, 8, 2, 8})(rc::Random(seed), 100).value();
  const auto X = convert_matrix<float>(X0);
  const auto A = attention(X, X, X);
  const auto B = attention_forward_bound(X, X, X, {}, {}, {});
  matrix<hp> ref;
  {
    scoped_fault none(fault::none);
    const auto Xh = convert_matrix<hp>(X0);
    ref = attention(Xh, Xh, Xh);
  }
  const auto Bh = attention_forward_bound(convert_matrix<hp>(X0), convert_matrix<hp>(X0),
                                          convert_matrix<hp>(X0), {}, {}, {});
  for (std::size_t i = 0; i < A.a.size(); ++i)
    if (abs(convert<hp>(A.a[i]) - ref.a[i]) > B.a[i] + Bh.a[i]) return true;
  return false;
}

TEST(bound_teeth, float_attention_bound_catches_missing_scale) {
  EXPECT_EQ(exceeded(300, attention_trial), 0);
  scoped_fault f(fault::no_attention_scale);
  EXPECT_GE(exceeded(300, attention_trial), 285);
}

}  // namespace

}  // namespace properties_bound_teeth_test
