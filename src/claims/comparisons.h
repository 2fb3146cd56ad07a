// Comparisons the claims share: ulps, bitwise equality, agreement within
// an entry-wise bound, and the permutation law of self-attention.
#pragma once

#include "laws/attention/permutation_equivariance.h"
#include "numerics/numerics.h"

#include <algorithm>
#include <cmath>
#include <cstring>  // std::memcmp
#include <limits>

namespace pv::claims {

/// Largest distance in units in the last place of `b`'s type: max |a - b| / ulp(b).
template <class T>
hp ulps(T x, T y) {
  T ulp = std::nextafter(std::abs(y), std::numeric_limits<T>::infinity()) - std::abs(y);
  return abs(convert<hp>(x) - convert<hp>(y)) / convert<hp>(ulp);
}

template <class T>
hp max_ulps(const matrix<T>& a, const matrix<T>& b) {
  hp m = 0;
  for (std::size_t i = 0; i < a.a.size(); ++i) {
    hp u = ulps(a.a[i], b.a[i]);
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
/// The permutation law (laws/attention/permutation_equivariance.h) on one fixed case,
/// with the largest distance in ulps of P A(X)'s type.
template <class T>
struct perm_law_result : laws::permutation_equivariance::outcome {
  hp max_ulps = 0;
};

template <class T>
perm_law_result<T> permutation_law(const matrix<double>& X0, const permutation& perm,
                                   const projections<double>& W0 = {},
                                   reduction sum = reduction::sequential) {
  perm_law_result<T> r;
  static_cast<laws::permutation_equivariance::outcome&>(r) =
      laws::permutation_equivariance::evaluate_attention<T>(X0, perm, W0, sum, [&](const auto& e) {
        if constexpr (is_ieee_v<T>) r.max_ulps = std::max(r.max_ulps, ulps(e.permuted, e.original));
        return true;
      });
  return r;
}

}  // namespace pv::claims
