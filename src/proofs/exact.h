// Exact arithmetic for the proofs: GMP rationals, and the field Q(sqrt 3)
// that holds cos and sin of every multiple of 30 degrees.
#pragma once

#include <boost/multiprecision/gmp.hpp>

#include <string>

namespace pv::proofs {

/// GMP rationals without expression templates (plain values, simple code).
using rational = boost::multiprecision::number<boost::multiprecision::gmp_rational,
                                              boost::multiprecision::et_off>;

/// a + b sqrt(3) with rational a, b; equality is exact (sqrt 3 is
/// irrational, so a + b sqrt 3 = 0 iff a = b = 0).
struct qsqrt3 {
  rational a = 0, b = 0;
  friend qsqrt3 operator+(const qsqrt3& x, const qsqrt3& y) { return {x.a + y.a, x.b + y.b}; }
  friend qsqrt3 operator-(const qsqrt3& x, const qsqrt3& y) { return {x.a - y.a, x.b - y.b}; }
  friend qsqrt3 operator-(const qsqrt3& x) { return {-x.a, -x.b}; }
  /// (a + b r)(c + d r) = (ac + 3bd) + (ad + bc) r, r = sqrt 3.
  friend qsqrt3 operator*(const qsqrt3& x, const qsqrt3& y) {
    return {x.a * y.a + 3 * x.b * y.b, x.a * y.b + x.b * y.a};
  }
  friend bool operator==(const qsqrt3& x, const qsqrt3& y) { return x.a == y.a && x.b == y.b; }
  std::string str() const { return a.str() + " + " + b.str() + "*sqrt(3)"; }
};

}  // namespace pv::proofs
