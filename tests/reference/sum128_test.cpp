// reference/sum128.h: sums of products of doubles, rounded to 128 bits after
// every addition, equal bit for bit (sign of zero included) to MPFR's
// mpfr_set_d, mpfr_mul_d, mpfr_add at 128 bits: on random operands of every
// scale and on the cases a rounding gets wrong first (exact cancellation,
// exponent gaps at the edges of the 256-bit window, ties to even, carries
// out of the top bit, subnormals, signed zeros).
#include "reference/sum128.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace reference_sum128_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::ref::sum128;

/// MPFR's sums at 128 bits, as laws/attend/problem.h's exact_dot computed them.
struct mpfr_sums {
  mpfr_t d, s, t;
  mpfr_sums() {
    mpfr_inits2(128, d, s, t, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_zero(d, 1);
    mpfr_set_zero(s, 1);
  }
  ~mpfr_sums() { mpfr_clears(d, s, t, static_cast<mpfr_ptr>(nullptr)); }
  void add(double a, double b) {
    mpfr_set_d(t, a, MPFR_RNDN);
    mpfr_mul_d(t, t, b, MPFR_RNDN);
    mpfr_add(d, d, t, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDN);
    mpfr_add(s, s, t, MPFR_RNDN);
  }
};

/// "" when x (precision 128) and the sum are the same number with the same sign, else both.
std::string differs(mpfr_srcptr x, const sum128& got) {
  mpfr_t y;
  mpfr_init2(y, 128);
  got.get(y);
  const bool same = (mpfr_zero_p(x) && mpfr_zero_p(y)) ? mpfr_signbit(x) == mpfr_signbit(y) : mpfr_equal_p(x, y) != 0;
  std::string why;
  if (!same) {
    char* a = nullptr;
    char* b = nullptr;
    mpfr_asprintf(&a, "%Ra", x);
    mpfr_asprintf(&b, "%Ra", y);
    why = std::string("mpfr ") + a + ", sum128 " + b;
    mpfr_free_str(a);
    mpfr_free_str(b);
  }
  mpfr_clear(y);
  return why;
}

/// Checks the sums of a_l b_l and |a_l b_l| after every addition.
void expect_same_sums(const std::vector<double>& a, const std::vector<double>& b, const std::string& what) {
  mpfr_sums m;
  sum128 d, s;
  for (std::size_t l = 0; l < a.size(); ++l) {
    m.add(a[l], b[l]);
    const auto p = sum128::exact_product(a[l], b[l]);  // as exact_dot sums them
    d.add(p);
    s.add_abs(p);
    const std::string e = differs(m.d, d), f = differs(m.s, s);
    ASSERT_EQ(e, "") << what << ", sum of a b after " << l + 1 << " terms (a " << a[l] << ", b " << b[l] << ")";
    ASSERT_EQ(f, "") << what << ", sum of |a b| after " << l + 1 << " terms";
  }
}

/// A double with a random 53-bit significand, sign and binary exponent in [lo, hi].
double random_double(std::mt19937_64& g, int lo, int hi) {
  const double m = std::ldexp(double(g() >> 11), -53);  // [0, 1) with 53 random bits
  const int e = std::uniform_int_distribution<int>(lo, hi)(g);
  const double x = std::ldexp(0.5 + m / 2, e);
  return (g() & 1) ? -x : x;
}

TEST(Sum128, RandomProductsOfEveryScaleEqualMpfrAfterEveryAddition) {
  std::mt19937_64 g(20261207);
  const int ranges[][2] = {{-2, 2}, {-30, 30}, {-200, 200}, {-1000, 1000}, {-1074, -1000}};
  for (int trial = 0; trial < 400; ++trial) {
    const auto& r = ranges[trial % 5];
    const std::size_t n = 1 + g() % 160;
    std::vector<double> a(n), b(n);
    for (std::size_t l = 0; l < n; ++l) {
      a[l] = random_double(g, r[0], r[1]);
      b[l] = random_double(g, r[0], r[1]);
      if (g() % 17 == 0) a[l] = (g() & 1) ? 0.0 : -0.0;
      if (g() % 23 == 0) b[l] = std::ldexp(double(g() % 1000), -1074);  // subnormal or zero
      if (g() % 29 == 0) {  // a short significand (a float's, at the double's scale)
        int e = 0;
        const double f = std::frexp(a[l], &e);
        a[l] = std::ldexp(double(float(f)), e);
      }
    }
    expect_same_sums(a, b, "trial " + std::to_string(trial));
  }
}

TEST(Sum128, CancellationsGapsTiesAndCarriesEqualMpfr) {
  std::mt19937_64 g(7);
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<double> a, b;
    const double x = random_double(g, -40, 40), y = random_double(g, -40, 40);
    a.push_back(x), b.push_back(y);
    switch (trial % 6) {
      case 0:  // exact cancellation, then a tiny term
        a.push_back(-x), b.push_back(y);
        a.push_back(random_double(g, -1074, -900)), b.push_back(random_double(g, -60, 0));
        break;
      case 1: {  // a term 2^-(100..300) below the sum: the edges of the 256-bit window
        const int gap = 100 + int(g() % 200);
        a.push_back(std::ldexp(random_double(g, 0, 0), std::ilogb(x) - gap)), b.push_back(y);
        a.push_back(-std::ldexp(random_double(g, 0, 0), std::ilogb(x) - gap / 2)), b.push_back(y);
        break;
      }
      case 2: {  // 2^-128 and 2^-129 of the sum: ties and near ties
        const double p = x * y;
        const int e = std::ilogb(p);
        for (int k : {-127, -128, -129, -130}) a.push_back(std::ldexp(1.0, e + k)), b.push_back((g() & 1) ? 1.0 : -1.0);
        a.push_back(std::ldexp(3.0, e - 129)), b.push_back(1.0);
        break;
      }
      case 3:  // carries: many equal terms of the sum's sign
        for (int k = 0; k < 40; ++k) a.push_back(x), b.push_back(y);
        break;
      case 4:  // near cancellation: the same product plus or minus a last-bit change
        a.push_back(-std::nextafter(x, 0.0)), b.push_back(y);
        a.push_back(std::nextafter(x, 2 * x)), b.push_back(-y);
        break;
      default:  // signed zeros only, then a term
        a = {-0.0, 0.0, -0.0}, b = {1.0, -1.0, -1.0};
        a.push_back(-0.0), b.push_back(-2.0);
        a.push_back(x), b.push_back(y);
        a.push_back(-x), b.push_back(y);
        break;
    }
    expect_same_sums(a, b, "trial " + std::to_string(trial));
  }
}

TEST(Sum128, OperandsOf128BitsEqualMpfrAtEveryExponentGap) {
  // add() takes any significand below 2^128: a difference whose smaller
  // operand reaches below the 256-bit window rounds by its sticky bit
  std::mt19937_64 g(128);
  mpfr_t x, y, t;
  mpfr_inits2(128, x, y, t, static_cast<mpfr_ptr>(nullptr));
  for (int trial = 0; trial < 20000; ++trial) {
    mpfr_set_zero(x, 1);
    sum128 s;
    for (int k = 0; k < 4; ++k) {
      const bool neg = g() & 1;
      sum128::u128 m = (sum128::u128(g()) << 64) | g();
      if (k > 0 && g() % 3 == 0) m |= sum128::u128(1) << 127;  // a full 128-bit significand
      if (g() % 5 == 0) m >>= g() % 128;
      const std::int64_t e = std::int64_t(g() % 600) - 300 - (k == 0 ? 0 : std::int64_t(g() % 300));
      s.add(neg, m, e);
      mpfr_set_uj_2exp(y, std::uint64_t(m >> 64), intmax_t(e + 64), MPFR_RNDN);
      mpfr_set_uj_2exp(t, std::uint64_t(m), intmax_t(e), MPFR_RNDN);
      mpfr_add(y, y, t, MPFR_RNDN);  // exact: m has at most 128 bits
      if (neg) mpfr_neg(y, y, MPFR_RNDN);
      mpfr_add(x, x, y, MPFR_RNDN);
      ASSERT_EQ(differs(x, s), "") << "trial " << trial << ", term " << k;
    }
  }
  // a power of two less a 128-bit operand 129 to 260 places below it: the
  // difference falls in the binade below, where a tie and a near tie differ
  // only in the bits below the window
  for (int d = 120; d <= 260; ++d)
    for (int r = 0; r < 20; ++r) {
      const sum128::u128 top = sum128::u128(1) << 127;
      // r 0: a tie; r 1 to 9: a tie but for one bit r - 1 places from the bottom; else random bits
      const sum128::u128 m = r == 0  ? top
                             : r < 10 ? top | sum128::u128(1) << (r - 1)
                                      : top | (sum128::u128(g()) << 64 | g()) >> (g() % 128) | 1;
      sum128 s;
      s.add(false, top, 0);
      s.add(true, m, -d);
      mpfr_set_ui_2exp(x, 1, 127, MPFR_RNDN);
      mpfr_set_uj_2exp(y, std::uint64_t(m >> 64), intmax_t(64 - d), MPFR_RNDN);
      mpfr_set_uj_2exp(t, std::uint64_t(m), intmax_t(-d), MPFR_RNDN);
      mpfr_add(y, y, t, MPFR_RNDN);
      mpfr_sub(x, x, y, MPFR_RNDN);
      ASSERT_EQ(differs(x, s), "") << "gap " << d << ", operand " << r;
    }
  mpfr_clears(x, y, t, static_cast<mpfr_ptr>(nullptr));
}

TEST(Sum128, SignedZerosFollowMpfr) {
  // +0 start; -0 products; (-0) + (-0) stays -0 only when the sum is -0
  expect_same_sums({-0.0}, {1.0}, "one -0 product");
  expect_same_sums({-0.0, 0.0}, {1.0, 1.0}, "-0 then +0");
  expect_same_sums({1.5, -1.5, -0.0}, {2.0, 2.0, 3.0}, "a cancellation then -0");
  expect_same_sums({0.0, 0.0}, {-1.0, -2.0}, "two -0 products");
}

}  // namespace

}  // namespace reference_sum128_test
