// A-priori rounding-error bounds (Higham, "Accuracy and Stability of
// Numerical Algorithms", 2nd ed., ch. 3-4). They give the tolerances of the
// laws in IEEE arithmetic; with T = hp they give the reference's own bound.
// Every bound is returned in hp, computed from the same data as the check.
#pragma once

#include "attention.h"
#include "matrix.h"

#include <limits>
#include <vector>

namespace pv {

/// Smallest positive subnormal of T (zero for hp): absolute error floor of
/// each product or quotient that may underflow.
template <class T>
hp underflow_floor() {
  if constexpr (is_ieee_v<T>) return convert<hp>(std::numeric_limits<T>::denorm_min());
  else return hp(0);
}

/// Two evaluations of attention in T that differ only in the order of the
/// sums over keys (the permutation law) agree entry by entry within
///   2 (gamma_n + gamma_{n-1} + 2u) sum_j p_j |v_jc| + 4 n floor,
/// where e_j are the computed (order-independent) exponentials, p_j = e_j / sum
/// e, and n the number of keys: each evaluation is within half of that of the
/// exact quotient of the same e_j (recursive summation, Higham eq. 4.4, one
/// rounded division). Returns the bound for every output entry.
template <class T>
matrix<hp> attention_reorder_bound(const matrix<T>& Q, const matrix<T>& K, const matrix<T>& V,
                                   const attention_options<T>& o = {}) {
  const std::size_t n = K.rows;
  const hp u = convert<hp>(unit_roundoff<T>());
  const hp g = convert<hp>(gamma<T>(static_cast<long>(n))) +
               convert<hp>(gamma<T>(static_cast<long>(n > 1 ? n - 1 : 1))) + 2 * u;
  matrix<hp> B(Q.rows, V.cols);
  std::vector<T> e;
  for (std::size_t i = 0; i < Q.rows; ++i) {
    exp_scores_row(Q, K, i, o, e);
    hp z = 0;
    for (auto& w : e) z += convert<hp>(w);
    for (std::size_t c = 0; c < V.cols; ++c) {
      hp s = 0;
      for (std::size_t j = 0; j < n; ++j) s += convert<hp>(e[j]) * abs(convert<hp>(V(j, c)));
      B(i, c) = 2 * (g * s / z * (1 + 4 * g)) + 4 * hp(static_cast<double>(n)) * underflow_floor<T>();
    }
  }
  return B;
}

}  // namespace pv
