// src/reference/mp_attention.cpp: a row of attention from binary64 inputs in
// MPFR is numerics/attention.h's attention<hp> (sequential sums), bit for bit,
// at two precisions and on inputs that stress each step: the dot products
// (cancellation, huge and tiny magnitudes, subnormals), the maximum (ties,
// every score equal, the largest last), the exponentials (weights that
// underflow binary64 by far), the weighted sums (zeros, signs), and the
// binary64 values held without mpfr_set_d (subnormals, extremes, infinities,
// NaN).
#include "reference/mp_attention.h"

#include "numerics/attention.h"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace pv::ref {
namespace reference_mp_attention_test {  // this file's names: a unity build compiles several test files as one
namespace {

struct precision_guard {
  unsigned saved = precision_bits();
  ~precision_guard() { set_precision_bits(saved); }
};

struct inputs {
  std::size_t n_q, n_k, d, d_v;
  std::vector<double> q, k, v;
};

/// splitmix64, enough for test data
struct draw {
  std::uint64_t s;
  double operator()(double scale) {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double(z >> 11) * 0x1p-53 * 2 - 1) * scale;
  }
};

inputs random_inputs(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t d_v, double scale, std::uint64_t seed) {
  inputs in{n_q, n_k, d, d_v, {}, {}, {}};
  draw g{seed};
  for (std::size_t e = 0; e < n_q * d; ++e) in.q.push_back(g(scale));
  for (std::size_t e = 0; e < n_k * d; ++e) in.k.push_back(g(scale));
  for (std::size_t e = 0; e < n_k * d_v; ++e) in.v.push_back(g(1));
  return in;
}

/// Every row of attention_row() against attention<hp>; the values compared
/// as MPFR numbers (mpfr_equal_p and the sign, so that -0 and +0 differ; NaN
/// matches NaN).
void expect_identical(const inputs& in, const std::string& what) {
  matrix<hp> Q(in.n_q, in.d), K(in.n_k, in.d), V(in.n_k, in.d_v);
  for (std::size_t e = 0; e < Q.a.size(); ++e) Q.a[e] = in.q[e];
  for (std::size_t e = 0; e < K.a.size(); ++e) K.a[e] = in.k[e];
  for (std::size_t e = 0; e < V.a.size(); ++e) V.a[e] = in.v[e];
  const matrix<hp> want = attention(Q, K, V);
  for (std::size_t i = 0; i < in.n_q; ++i) {
    const std::vector<hp> got = attention_row(in.q.data() + i * in.d, in.k.data(), in.v.data(), in.n_k, in.d, in.d_v);
    ASSERT_EQ(got.size(), in.d_v);
    for (std::size_t c = 0; c < in.d_v; ++c) {
      const auto* a = got[c].backend().data();
      const auto* b = want(i, c).backend().data();
      const bool same = (mpfr_nan_p(a) && mpfr_nan_p(b)) || (mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b));
      ASSERT_TRUE(same && mpfr_get_prec(a) == mpfr_get_prec(b))
          << what << ": row " << i << " column " << c << ": " << to_decimal(got[c]) << " against attention<hp>'s "
          << to_decimal(want(i, c));
    }
  }
}

TEST(MpAttention, EqualsAttentionOfHpBitForBit) {
  precision_guard g;
  for (unsigned bits : {113u, 256u}) {
    set_precision_bits(bits);
    const std::string p = std::to_string(bits) + " bits";
    expect_identical(random_inputs(3, 1, 8, 4, 1, 1), p + ", one key");
    expect_identical(random_inputs(4, 65, 32, 16, 1, 2), p + ", random");
    expect_identical(random_inputs(2, 200, 16, 8, 40, 3), p + ", scores far apart (weights below 2^-1074)");
    expect_identical(random_inputs(2, 30, 16, 8, 1e150, 4), p + ", products near the binary64 overflow");
    expect_identical(random_inputs(2, 30, 16, 8, 1e-160, 5), p + ", products far below the subnormals");
    inputs same = random_inputs(3, 17, 8, 5, 1, 6);  // every key the same: every score equal
    for (std::size_t j = 1; j < same.n_k; ++j)
      for (std::size_t l = 0; l < same.d; ++l) same.k[j * same.d + l] = same.k[l];
    expect_identical(same, p + ", repeated keys");
    inputs mixed = random_inputs(2, 12, 6, 6, 1, 7);  // zeros, signed zeros, subnormals, exact cancellation
    mixed.q[0] = 0.0, mixed.q[1] = -0.0, mixed.q[2] = std::numeric_limits<double>::denorm_min();
    mixed.k[0] = 1.0, mixed.k[6] = -1.0;
    mixed.k[1] = -std::numeric_limits<double>::denorm_min(), mixed.k[2] = std::numeric_limits<double>::min() / 3;
    mixed.v[0] = -0.0, mixed.v[1] = 0.0, mixed.v[2] = 1e308, mixed.v[3] = -1e308;
    mixed.v[4] = -std::numeric_limits<double>::min() / 5, mixed.v[5] = std::numeric_limits<double>::max();
    for (std::size_t c = 0; c < mixed.d_v; ++c) mixed.v[6 + c] = -mixed.v[c];  // two keys that cancel
    expect_identical(mixed, p + ", zeros, subnormals and cancellation");
    inputs special = random_inputs(2, 6, 4, 3, 1, 10);  // an infinite value, a NaN key: NaN and infinite outputs
    special.v[4] = -std::numeric_limits<double>::infinity();
    expect_identical(special, p + ", an infinite value");
    special.k[8] = std::numeric_limits<double>::quiet_NaN();
    expect_identical(special, p + ", a NaN key");
    inputs last = random_inputs(1, 9, 4, 3, 1, 8);  // the largest score last
    for (std::size_t l = 0; l < last.d; ++l) last.k[8 * last.d + l] = 50 * (last.q[l] >= 0 ? 1 : -1);
    expect_identical(last, p + ", the largest score last");
  }
}

TEST(MpAttention, ADifferentKeyChangesTheRow) {  // the comparison above has teeth
  const inputs in = random_inputs(1, 5, 4, 3, 1, 9);
  inputs other = in;
  other.k[2] = std::nextafter(other.k[2], 2.0);
  const auto ra = attention_row(in.q.data(), in.k.data(), in.v.data(), in.n_k, in.d, in.d_v);
  const auto rb = attention_row(in.q.data(), other.k.data(), other.v.data(), other.n_k, other.d, other.d_v);
  bool differ = false;
  for (std::size_t c = 0; c < in.d_v; ++c) differ |= !mpfr_equal_p(ra[c].backend().data(), rb[c].backend().data());
  EXPECT_TRUE(differ);
}

}  // namespace
}  // namespace reference_mp_attention_test
}  // namespace pv::ref
