// A-priori rounding-error bounds (Higham, "Accuracy and Stability of
// Numerical Algorithms", 2nd ed., ch. 3-4). They give the tolerances of the
// laws in IEEE arithmetic; with T = hp they give the reference's own bound.
// Every bound is returned in hp, computed from the same data as the check.
#pragma once

#include "attention.h"
#include "matrix.h"
#include "rope.h"
#include "sinusoid.h"

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

/// Assumed accuracy of the C library's exp, sin and cos in IEEE types: within
/// one ulp, i.e. relative error <= 2u (glibc documents <= 1 ulp for these on
/// x86_64). Zero for hp (MPFR rounds correctly; its u is negligible here).
template <class T>
hp libm_relative_error() {
  if constexpr (is_ieee_v<T>) return 2 * convert<hp>(unit_roundoff<T>());
  else return hp(0);
}

/// Forward error of attention computed in T against the exact attention of
/// the same (IEEE) inputs, entry by entry (issue 4, error budgets):
///   |y~ - y| <= [S (u + b) + (1 + u) sum_j p_j |v_jc| a_j] / (1 - b) + 2 n floor (max|v| + S),
/// with S = sum_j p_j |v_jc| (>= |y|), p_j the exact softmax weights,
/// r_j = exp(tau_j)(1 + 2u) - 1 the relative error of each computed
/// exponential (tau_j = score error + u |s~_j - max|; scores: Higham 3.5 for
/// the dot, gamma_2/gamma_3 for the rounded 1/sqrt(d) and product),
/// a_j = (1 + r_j)(1 + gamma_n) - 1 and b = max_j (1 + r_j)(1 + gamma_{n-1}) - 1
/// for the sequential reduction, (1 + r_j)(1 + u) - 1 for both when
/// correctly rounded, and one rounded division. Assumes libm exp within 1 ulp.
template <class T>
matrix<hp> attention_forward_bound(const matrix<T>& Q, const matrix<T>& K, const matrix<T>& V,
                                   const attention_options<T>& o = {}) {
  const std::size_t n = K.rows, d = Q.cols;
  const hp u = convert<hp>(unit_roundoff<T>());
  const hp g2 = convert<hp>(gamma<T>(2)), g3 = convert<hp>(gamma<T>(3)), gd = convert<hp>(gamma<T>(static_cast<long>(d)));
  const bool cr = o.sum == reduction::correctly_rounded && is_ieee_v<T>;
  const hp gn = cr ? u : convert<hp>(gamma<T>(static_cast<long>(n)));
  const hp gn1 = cr ? u : convert<hp>(gamma<T>(static_cast<long>(n > 1 ? n - 1 : 1)));
  const hp rsd = o.scale ? 1 / sqrt(hp(static_cast<double>(d))) : hp(1);
  const T inv_scale = o.scale ? T(1) / sqrt_(T(d)) : T(1);
  const hp floor = underflow_floor<T>();
  matrix<hp> B(Q.rows, V.cols);
  for (std::size_t i = 0; i < Q.rows; ++i) {
    const std::size_t limit = o.causal ? std::min(n, i + 1) : n;
    std::vector<T> st(limit);
    std::vector<hp> s(limit), a(limit);
    for (std::size_t j = 0; j < limit; ++j) {
      st[j] = dot(Q.row(i), K.row(j), d) * inv_scale;  // the computed score, as the code does
      hp D = 0, absD = 0;
      for (std::size_t l = 0; l < d; ++l) {
        const hp t = convert<hp>(Q(i, l)) * convert<hp>(K(j, l));
        D += t;
        absD += abs(t);
      }
      s[j] = D * rsd;
      a[j] = o.scale ? (gd * absD * (1 + g2) * (1 + u) + abs(D) * g3) * rsd : gd * absD;
    }
    T m = st[0];
    for (auto x : st) m = x > m ? x : m;
    const hp mh = convert<hp>(m);
    hp z = 0;
    std::vector<hp> p(limit), r(limit);
    for (std::size_t j = 0; j < limit; ++j) {
      p[j] = exp(s[j] - mh);
      z += p[j];
      const hp tau = a[j] + u * abs(convert<hp>(st[j]) - mh);
      r[j] = exp(tau) * (1 + libm_relative_error<T>()) - 1;
    }
    hp b = 0;
    for (std::size_t j = 0; j < limit; ++j) {
      p[j] /= z;
      const hp bj = (1 + r[j]) * (1 + gn1) - 1;
      if (bj > b) b = bj;
    }
    for (std::size_t c = 0; c < V.cols; ++c) {
      hp S = 0, A = 0, vmax = 0;
      for (std::size_t j = 0; j < limit; ++j) {
        const hp v = abs(convert<hp>(V(j, c)));
        S += p[j] * v;
        A += p[j] * v * ((1 + r[j]) * (1 + gn) - 1);
        if (v > vmax) vmax = v;
      }
      B(i, c) = (S * (u + b) + (1 + u) * A) / (1 - b) +
                2 * hp(static_cast<double>(n)) * floor * (vmax + S);
    }
  }
  return B;
}

/// Forward error of rope_dot computed in T against the exact <R(m) q, R(n) k>
/// with the same (IEEE) speeds: per pair, the angle fl(p w) is within u |p w|
/// and libm cos/sin within 2u, so each rotated component is off by at most
///   (|x_a| + |x_b|)(gamma_2 + u |p w| + 2u);
/// the final dot adds gamma_D sum |q'_i k'_i| (Higham 3.5) plus the
/// propagated component errors sum (|dq_i| |k'_i| + |q'_i| |dk_i| + |dq_i| |dk_i|),
/// with |q'_i| <= |q~'_i| + |dq_i| from the computed rotations.
template <class T>
hp rope_dot_bound(const rope_layout<T>& L, const T* q, const double* m, const T* k, const double* n) {
  const hp u = convert<hp>(unit_roundoff<T>());
  const hp g2 = convert<hp>(gamma<T>(2));
  const hp gD = convert<hp>(gamma<T>(static_cast<long>(L.head_dim)));
  const hp lib = libm_relative_error<T>();
  std::vector<T> qr(q, q + L.head_dim), kr(k, k + L.head_dim);
  rope_rotate(L, m, qr.data());
  rope_rotate(L, n, kr.data());
  std::vector<hp> dq(L.head_dim, hp(0)), dk(L.head_dim, hp(0));
  for (const auto& pr : L.pairs) {
    const hp aq = abs(convert<hp>(m[pr.axis]) * convert<hp>(pr.speed));
    const hp ak = abs(convert<hp>(n[pr.axis]) * convert<hp>(pr.speed));
    const hp eq = (abs(convert<hp>(q[pr.a])) + abs(convert<hp>(q[pr.b]))) * (g2 + u * aq + lib);
    const hp ek = (abs(convert<hp>(k[pr.a])) + abs(convert<hp>(k[pr.b]))) * (g2 + u * ak + lib);
    dq[pr.a] = dq[pr.b] = eq;
    dk[pr.a] = dk[pr.b] = ek;
  }
  hp dot_abs = 0, prop = 0;
  for (std::size_t i = 0; i < L.head_dim; ++i) {
    const hp qa = abs(convert<hp>(qr[i])), ka = abs(convert<hp>(kr[i]));
    dot_abs += qa * ka;
    prop += dq[i] * (ka + dk[i]) + (qa + dq[i]) * dk[i] + dq[i] * dk[i];
  }
  return gD * dot_abs + prop + 4 * hp(static_cast<double>(L.head_dim)) * underflow_floor<T>();
}

/// Residual of the sinusoid's linear shift law in T, per component:
/// |p~(m + k) - M~_k p~(m)| with p~ = sinusoid_with_speeds<T>, M~_k =
/// sinusoid_shift_map<T> and the product taken as a d-term dot (the zero
/// entries add exactly). With e(x) = u |x w| + 2u the error of a computed
/// sin/cos of fl(x w) (angle rounding; libm within 1 ulp) and all of |c|, |s|,
/// |p0|, |p1| <= 1:
///   |(M~ p~)_i - (M p)_i| <= 2 gamma_2 + 2 e(k) + 2 e(m) + 2 e(k) e(m),
/// and M p(m) = p(m + k) exactly, whose computed value is within e(m + k).
/// Positions m, k, m + k must be exact in T.
template <class T>
std::vector<hp> sinusoid_shift_bound(const std::vector<T>& w, double m, double k) {
  const hp u = convert<hp>(unit_roundoff<T>());
  const hp g2 = convert<hp>(gamma<T>(2));
  const hp gd = convert<hp>(gamma<T>(static_cast<long>(2 * w.size())));
  const hp lib = libm_relative_error<T>();
  std::vector<hp> B(2 * w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    const hp wi = abs(convert<hp>(w[i]));
    const hp em = u * abs(hp(m)) * wi + lib, ek = u * abs(hp(k)) * wi + lib,
             emk = u * abs(hp(m + k)) * wi + lib;
    // |c~|, |s~|, |p~0|, |p~1| <= 1; the product-sum has 2 non-zero terms,
    // bounded as a d-term dot (the zeros add exactly, gamma_d covers it).
    const hp prod = (g2 > gd ? g2 : gd) * 2;
    const hp data = 2 * ek + 2 * em + 2 * ek * em;  // |c~ p~0 - c p0| + |s~ p~1 - s p1|
    B[2 * i] = B[2 * i + 1] = prod + data + emk + 8 * underflow_floor<T>();
  }
  return B;
}

}  // namespace pv
