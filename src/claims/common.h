// Helpers shared by the claim files: spelling values for the report,
// comparing at the chapter's printed digits, and fixed deterministic inputs.
#pragma once

#include "claims/registry.h"
#include "posverify/posverify.h"

#include <cmath>
#include <cstdint>
#include <cstring>  // std::memcmp
#include <limits>
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

/// x rounded to `decimals` places, spelled as the chapter prints numbers:
/// "0.866", "-0.040", "0" (no sign on a value that rounds to zero).
/// Round half away from zero on the exact hp value.
inline std::string fixed(const hp& x, int decimals) {
  hp scale = pow(hp(10), decimals);
  hp r = round(x * scale);  // integral, small for every printed value
  long long n = r.convert_to<long long>();
  bool neg = n < 0;
  unsigned long long a = neg ? static_cast<unsigned long long>(-n) : static_cast<unsigned long long>(n);
  std::string digits = std::to_string(a);
  if (decimals > 0) {
    const std::size_t k = static_cast<std::size_t>(decimals);
    if (digits.size() <= k) digits = std::string(k + 1 - digits.size(), '0') + digits;
    const std::size_t int_len = digits.size() - k;
    digits = digits.substr(0, int_len) + '.' + digits.substr(int_len);
  }
  return (neg ? "-" : "") + digits;
}

/// Decimals of a printed number: "0.866" -> 3, "0" -> 0.
inline int decimals_of(const std::string& printed) {
  auto p = printed.find('.');
  return p == std::string::npos ? 0 : static_cast<int>(printed.size() - p - 1);
}

/// Comparisons of computed values with the chapter's printed roundings, at
/// the printed digits: the value is rounded to as many decimals as the
/// printed number shows, and the two strings must be equal.
class printed_check {
 public:
  /// Records one comparison; returns whether it agrees.
  bool compare(const hp& value, const std::string& printed, const std::string& name) {
    std::string got = fixed(value, decimals_of(printed));
    ++total_;
    if (got == printed) {
      ++agreed_;
      return true;
    }
    mismatches_ += (mismatches_.empty() ? "" : "; ") + name + " = " + ref::to_decimal(value, 10) +
                   " rounds to " + got + ", printed " + printed;
    return false;
  }
  bool all_agree() const { return agreed_ == total_; }
  /// "4 of 4 printed numbers agree at their digits" plus every mismatch.
  std::string summary() const {
    return std::to_string(agreed_) + " of " + std::to_string(total_) +
           " printed numbers agree at their digits" +
           (mismatches_.empty() ? "" : "; disagreeing: " + mismatches_);
  }

 private:
  int agreed_ = 0, total_ = 0;
  std::string mismatches_;
};

/// Fixed deterministic token entries: multiples of 1/4 in [-1.5, 1.5] from a
/// simple integer formula, exact in float, double and hp alike. `salt`
/// selects a different but equally fixed pattern.
inline double fixed_entry(std::size_t i, std::size_t j, std::size_t salt = 0) {
  long v = static_cast<long>((5 * i + 3 * j + 7 * salt + 2 * i * j + 1) % 13) - 6;
  return static_cast<double>(v) / 4.0;
}

/// An n x d matrix of fixed_entry values.
inline matrix<double> fixed_tokens(std::size_t n, std::size_t d, std::size_t salt = 0) {
  matrix<double> X(n, d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) X(i, j) = fixed_entry(i, j, salt);
  return X;
}

/// A fixed entry without short periods, for large inputs (thousands of
/// tokens): the top byte of splitmix64 of (i, j, salt) as a signed multiple
/// of 1/64 in [-2, 2), exact in float, double and hp.
inline double hashed_entry(std::size_t i, std::size_t j, std::size_t salt = 0) {
  std::uint64_t z = static_cast<std::uint64_t>(i) * 1000003u + static_cast<std::uint64_t>(j) * 7919u +
                    static_cast<std::uint64_t>(salt) * 104729u + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(static_cast<int>(z >> 56) - 128) / 64.0;
}

/// An n x d matrix of hashed_entry values.
inline matrix<double> hashed_tokens(std::size_t n, std::size_t d, std::size_t salt = 0) {
  matrix<double> X(n, d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) X(i, j) = hashed_entry(i, j, salt);
  return X;
}

/// A fixed permutation of n rows from a small linear congruential generator
/// with a constant seed (Fisher-Yates), so that the input never changes.
inline permutation fixed_permutation(std::size_t n, std::uint64_t seed = 12345) {
  permutation p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = i;
  std::uint64_t s = seed;
  for (std::size_t i = n; i > 1; --i) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    std::size_t j = static_cast<std::size_t>((s >> 33) % i);
    std::swap(p[i - 1], p[j]);
  }
  return p;
}

/// Largest distance in units in the last place of `b`'s type: max |a - b| / ulp(b).
template <class T>
hp max_ulps(const matrix<T>& a, const matrix<T>& b) {
  hp m = 0;
  for (std::size_t i = 0; i < a.a.size(); ++i) {
    T x = a.a[i], y = b.a[i];
    T ulp = std::nextafter(std::abs(y), std::numeric_limits<T>::infinity()) - std::abs(y);
    hp u = abs(convert<hp>(x) - convert<hp>(y)) / convert<hp>(ulp);
    if (u > m) m = u;
  }
  return m;
}

/// Whether every entry is bitwise identical.
template <class T>
bool bitwise_equal(const matrix<T>& a, const matrix<T>& b) {
  if (a.rows != b.rows || a.cols != b.cols) return false;
  for (std::size_t i = 0; i < a.a.size(); ++i)
    if (std::memcmp(&a.a[i], &b.a[i], sizeof(T)) != 0) return false;
  return true;
}

/// max over entries of (|a - b| - bound): <= 0 means within the bound.
template <class T>
bool within(const matrix<T>& a, const matrix<T>& b, const matrix<hp>& bound) {
  for (std::size_t i = 0; i < a.a.size(); ++i)
    if (abs(convert<hp>(a.a[i]) - convert<hp>(b.a[i])) > bound.a[i]) return false;
  return true;
}

/// Largest entry of a bound matrix.
inline hp max_entry(const matrix<hp>& m) {
  hp x = 0;
  for (const auto& v : m.a)
    if (v > x) x = v;
  return x;
}

/// A short lossless-enough spelling of an hp figure for qualification text.
inline std::string fig(const hp& x, int digits = 6) { return ref::to_decimal(x, digits); }

/// The permutation law of self-attention checked in T for one input:
/// A(P X) against P A(X), with the reorder bound of error_bounds.h.
template <class T>
struct perm_law_result {
  hp max_abs_diff = 0;
  hp max_bound = 0;
  hp max_ulps = 0;
  bool bitwise_equal = false;
  bool within_bound = false;
};

template <class T>
perm_law_result<T> permutation_law(const matrix<double>& X0, const permutation& perm,
                                   const projections<double>& W0 = {},
                                   reduction sum = reduction::sequential) {
  auto X = convert_matrix<T>(X0);
  projections<T> W{convert_matrix<T>(W0.wq), convert_matrix<T>(W0.wk), convert_matrix<T>(W0.wv)};
  attention_options<T> o;
  o.sum = sum;
  auto A = self_attention(X, W, o);
  auto PX = permute_rows(X, perm);
  auto A_PX = self_attention(PX, W, o);
  auto P_A = permute_rows(A, perm);
  auto B = attention_reorder_bound(project(PX, W.wq), project(PX, W.wk), project(PX, W.wv), o);
  perm_law_result<T> r;
  r.max_abs_diff = max_abs_diff(A_PX, P_A);
  r.max_bound = max_entry(B);
  r.within_bound = within(A_PX, P_A, B);
  r.bitwise_equal = bitwise_equal(A_PX, P_A);
  if constexpr (is_ieee_v<T>) r.max_ulps = max_ulps(A_PX, P_A);
  return r;
}

}  // namespace pv::claims
