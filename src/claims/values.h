// How claim values are spelled in the report: hp numbers as decimal strings
// with 40 significant digits, exact integers as JSON integers.
#pragma once

#include "core/json.h"
#include "numerics/matrix.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace pv::claims {

/// Significant digits of hp values in the report: 40 (CLAIMS.md asks for at
/// least 30), never more than the reference precision carries.
inline int report_digits() {
  int full = static_cast<int>(std::ceil(ref::precision_bits() * 0.30102999566398120)) + 1;
  return full < 40 ? full : 40;
}

/// An hp value as a decimal string ("0" for an exact zero).
inline json dec(const hp& x) { return json::string(ref::to_decimal(x, report_digits())); }

/// An IEEE value converted exactly to hp, as a decimal string.
template <class T>
json dec_of(const T& x) { return dec(convert<hp>(x)); }

/// A vector of hp values as a JSON array of decimal strings.
inline json dec_vec(const std::vector<hp>& v) {
  json a = json::array();
  for (const auto& x : v) a.push(dec(x));
  return a;
}

/// A matrix of hp values as an array of rows.
inline json dec_mat(const matrix<hp>& m) {
  json a = json::array();
  for (std::size_t i = 0; i < m.rows; ++i) {
    json r = json::array();
    for (std::size_t j = 0; j < m.cols; ++j) r.push(dec(m(i, j)));
    a.push(r);
  }
  return a;
}

inline json int_vec(const std::vector<std::int64_t>& v) {
  json a = json::array();
  for (auto x : v) a.push(json::integer(x));
  return a;
}

inline json str_vec(const std::vector<std::string>& v) {
  json a = json::array();
  for (const auto& s : v) a.push(json::string(s));
  return a;
}
/// A short lossless-enough spelling of an hp figure for qualification text.
inline std::string fig(const hp& x, int digits = 6) { return ref::to_decimal(x, digits); }

}  // namespace pv::claims
