// The any-order bound of laws/attention/any_order_bound.h: it covers
// attention in float32 summed in any of posverify's orders, the binary64
// evaluation is at least the hp one, and gamma is infinite past n u = 1.
#include "laws/attention/any_order_bound.h"
#include "laws/attention/reference.h"
#include "numerics/attention.h"
#include "numerics/permutation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace pv::laws::attention_bound {
namespace laws_attention_any_order_bound_test {  // this file's names: a unity build compiles several test files as one
namespace {

matrix<float> filled(std::size_t r, std::size_t c, double phase) {
  matrix<float> m(r, c);
  for (std::size_t i = 0; i < m.a.size(); ++i) m.a[i] = float(2 * std::sin(1.3 * double(i) + phase));
  return m;
}

TEST(AnyOrderBound, CoversFloatAttentionInEveryOrder) {
  const auto Q = filled(3, 5, 0.1), K = filled(7, 5, 0.7), V = filled(7, 4, 1.9);
  const hp u = convert<hp>(unit_roundoff<float>()), mu = convert<hp>(std::numeric_limits<float>::min());
  const auto B = any_order(Q, K, V, u, mu);
  const auto exact = attention(convert_matrix<hp>(Q), convert_matrix<hp>(K), convert_matrix<hp>(V));
  // sequential and correctly rounded sums, and the keys summed backwards
  const permutation backwards = {6, 5, 4, 3, 2, 1, 0};
  for (const bool reversed : {false, true})
    for (auto sum : {reduction::sequential, reduction::correctly_rounded}) {
      attention_options<float> o;
      o.sum = sum;
      const auto A = reversed ? attention(Q, permute_rows(K, backwards), permute_rows(V, backwards), o)
                              : attention(Q, K, V, o);
      for (std::size_t e = 0; e < A.a.size(); ++e) {
        EXPECT_LE(abs(convert<hp>(A.a[e]) - exact.a[e]), B.a[e]) << to_string(sum) << " entry " << e;
        EXPECT_GT(B.a[e], 0);
      }
    }
  // a bound that is too small is caught: at u / 1000 the float error exceeds it
  const auto tiny = any_order(Q, K, V, u / 1000, hp(0));
  const auto A = attention(Q, K, V);
  bool exceeded = false;
  for (std::size_t e = 0; e < A.a.size(); ++e) exceeded |= abs(convert<hp>(A.a[e]) - exact.a[e]) > tiny.a[e];
  EXPECT_TRUE(exceeded);
}

TEST(AnyOrderBound, Binary64EvaluationIsAnUpperBoundOfTheHpOne) {
  const auto Q = filled(2, 4, 0.3), K = filled(6, 4, 1.1), V = filled(6, 3, 2.3);
  const double u = unit_roundoff<float>(), mu = std::numeric_limits<float>::min();
  const auto B = any_order(Q, K, V, convert<hp>(u), convert<hp>(mu));
  const auto q = convert_matrix<double>(Q), k = convert_matrix<double>(K), v = convert_matrix<double>(V);
  const auto B64 = any_order_binary64(q.a.data(), k.a.data(), v.a.data(), 2, 6, 4, 3, u, mu, 0);
  for (std::size_t e = 0; e < B64.size(); ++e) {
    EXPECT_GE(convert<hp>(B64[e]), B.a[e]) << e;
    EXPECT_LE(convert<hp>(B64[e]), B.a[e] * hp(1.0001)) << e;  // and not much more
  }
}

// A float16 accumulator of p v (a float16 K/V cache whose sum has V's type,
// scores and weights in float32): the storage-class bound alone is exceeded
// on a long row of positive values; with the accumulator's u_pv it holds, in
// hp and in binary64, and it is infinite from n = 1023 keys.
TEST(AnyOrderBound, CoversASixteenBitAccumulatorOfPV) {
  const std::size_t n = 300;
  matrix<float> Q = filled(2, 8, 0.4), K = filled(n, 8, 0.9), V(n, 3);
  for (auto& x : Q.a) x /= 64;  // nearly equal weights: the sum of p v grows to about 2n
  for (std::size_t e = 0; e < V.a.size(); ++e) V.a[e] = float(2 + std::sin(0.7 * double(e)));  // in [1, 3]
  const auto f16 = [](double x) { return double(static_cast<_Float16>(x)); };
  const auto f32 = [](double x) { return double(float(x)); };
  for (auto* m : {&Q, &K, &V})
    for (auto& x : m->a) x = float(f16(x));
  const auto A = attention_reference::plain_rounded(Q, K, V, f16, f32, f16);
  const auto exact = attention(convert_matrix<hp>(Q), convert_matrix<hp>(K), convert_matrix<hp>(V));
  const hp u = convert<hp>(unit_roundoff<float>()), mu = convert<hp>(std::numeric_limits<float>::min()),
           us = hp(0x1p-11), eta = hp(0x1p-24);
  const auto storage = any_order(Q, K, V, u, mu, us), pv = any_order(Q, K, V, u, mu, us, us, eta);
  bool beyond_storage = false;
  for (std::size_t e = 0; e < A.a.size(); ++e) {
    const hp err = abs(convert<hp>(A.a[e]) - exact.a[e]);
    EXPECT_LE(err, pv.a[e]) << e;
    beyond_storage |= err > storage.a[e];
  }
  EXPECT_TRUE(beyond_storage) << "the storage bound alone covers a float16 accumulator: the test has no teeth";
  const auto q = convert_matrix<double>(Q), k = convert_matrix<double>(K), v = convert_matrix<double>(V);
  const auto B64 = any_order_binary64(q.a.data(), k.a.data(), v.a.data(), 2, n, 8, 3, 0x1p-24, 0x1p-126, 0x1p-24,
                                      0x1p-11, 0x1p-11);
  for (std::size_t e = 0; e < B64.size(); ++e) EXPECT_GE(convert<hp>(B64[e]), pv.a[e]) << e;
  const auto ones = [](std::size_t r, std::size_t c) { return std::vector<double>(r * c, 1.0); };
  for (const std::size_t keys : {1022u, 1023u}) {
    const auto kk = ones(keys, 1), vv = ones(keys, 1), qq = ones(1, 1);
    const auto b = any_order_binary64(qq.data(), kk.data(), vv.data(), 1, keys, 1, 1, 0x1p-24, 0x1p-126, 0x1p-24,
                                      0x1p-11, 0x1p-11);
    EXPECT_EQ(std::isinf(b[0]), keys == 1023) << keys << " keys: " << b[0];
  }
}

TEST(AnyOrderBound, GammaIsInfinitePastOne) {
  EXPECT_EQ(gamma_at(2, hp(0.25)), hp(1));
  EXPECT_TRUE(boost::multiprecision::isinf(gamma_at(4, hp(0.25))));
  EXPECT_NE(any_order_rule().find("gamma_{4n+4}"), std::string::npos);
}

}  // namespace
}  // namespace laws_attention_any_order_bound_test
}  // namespace pv::laws::attention_bound
