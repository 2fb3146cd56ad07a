// Scalar traits shared by the code under test (float, double) and the
// reference (pv::hp): the same formulas are instantiated for each type.
#pragma once

#include "reference/mp.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <string>
#include <type_traits>

namespace pv {

template <class T>
inline constexpr bool is_ieee_v = std::is_floating_point_v<T>;

/// Name of a scalar type as it appears in reports.
template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, float>) return "float32";
  else if constexpr (std::is_same_v<T, double>) return "float64";
  else return "mpfr" + std::to_string(ref::precision_bits());
}

/// u = 2^-p, half the machine epsilon: |fl(x op y) - x op y| <= u |x op y|.
template <class T>
T unit_roundoff() {
  if constexpr (is_ieee_v<T>) return std::numeric_limits<T>::epsilon() / 2;
  else return ref::unit_roundoff();
}

/// Higham's gamma_n = n u / (1 - n u), the relative error bound of an
/// n-term recursive sum or dot product.
template <class T>
T gamma(long n) {
  T nu = T(n) * unit_roundoff<T>();
  return nu / (T(1) - nu);
}

template <class T>
T pi() {
  if constexpr (is_ieee_v<T>) return std::numbers::pi_v<T>;
  else return ref::pi();
}

/// Degrees to radians in T (pi from T itself).
template <class T>
T radians(const T& deg) { return deg * pi<T>() / T(180); }

// Elementary functions by ADL: std:: for IEEE types, Boost/MPFR for hp.
template <class T> T sqrt_(const T& x) { using std::sqrt; return sqrt(x); }
template <class T> T exp_(const T& x) { using std::exp; return exp(x); }
template <class T> T sin_(const T& x) { using std::sin; return sin(x); }
template <class T> T cos_(const T& x) { using std::cos; return cos(x); }
template <class T> T log_(const T& x) { using std::log; return log(x); }
template <class T> T pow_(const T& x, const T& y) { using std::pow; return pow(x, y); }
template <class T> T abs_(const T& x) { using std::abs; return abs(x); }

/// Converts between scalar types; to hp from float/double is exact.
template <class To, class From>
To convert(const From& x) {
  if constexpr (std::is_same_v<To, From>) return x;
  else if constexpr (is_ieee_v<To> && !is_ieee_v<From>) return x.template convert_to<To>();
  else return To(x);
}

/// A lossless decimal spelling: %.9g for float, %.17g for double, every
/// digit for hp. Counterexamples and reports use this.
template <class T>
std::string to_decimal(const T& x) {
  if constexpr (is_ieee_v<T>) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", std::numeric_limits<T>::max_digits10,
                  static_cast<double>(x));
    return buf;
  } else {
    return ref::to_decimal(x);
  }
}

/// A short decimal for a finding: `digits` significant digits (%g), e.g.
/// "0.5582", "28.67", "5e+05". Not lossless: counterexamples use to_decimal.
inline std::string significant(double x, int digits = 4) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return buf;
}

}  // namespace pv
