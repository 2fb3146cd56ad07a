// Comparisons the claims share: ulps, bitwise equality, agreement within
// an entry-wise bound, and the permutation law of self-attention.
#pragma once

#include "posverify/posverify.h"

#include <cmath>
#include <cstring>  // std::memcmp
#include <limits>

namespace pv::claims {

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

/// Whether |a_ij - b_ij| <= bound_ij for every entry.
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
