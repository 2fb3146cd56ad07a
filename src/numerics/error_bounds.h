// A-priori rounding-error bounds (Higham, "Accuracy and Stability of
// Numerical Algorithms", 2nd ed., ch. 3-4). They give the tolerances of the
// laws in IEEE arithmetic; with T = hp they give the reference's own bound.
// Every bound is returned in hp, computed from the same data as the check.
#pragma once

#include "numerics/attention.h"
#include "numerics/conv.h"
#include "numerics/matrix.h"
#include "numerics/rope.h"
#include "numerics/sinusoid.h"

#include <algorithm>
#include <cmath>
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

/// Higham's gamma_n = n u / (1 - n u) for the unit roundoff u of T, computed
/// in hp (so that the bound itself is not rounded down in float).
template <class T>
hp gamma_hp(long n) {
  const hp nu = hp(static_cast<double>(n)) * convert<hp>(unit_roundoff<T>());
  return nu / (1 - nu);
}

/// Two evaluations of attention in T that differ only in the order of the
/// sums over keys (the permutation law) agree entry by entry within
///   2 g (1 + 4 g) sum_j p_j |v_jc| + 4 n floor,   g = gamma_n + gamma_{n-1} + 2u,
/// where e_j are the computed (order-independent) exponentials, p_j = e_j / sum
/// e, and n the number of keys. Each evaluation is within g (1 + 4 g) S of the
/// exact quotient of the same e_j, S = sum_j p_j |v_jc|: the numerator's sum
/// errs by gamma_n (Higham eq. 4.4), the denominator's by gamma_{n-1}, the
/// division by u, and dividing by (1 - gamma_{n-1}) costs the factor
/// 1 / (1 - x) <= 1 + 2x (x <= 1/2) <= 1 + 4 g (the 4 instead of 2 is slack on
/// a second-order term). The factor 2: two evaluations, each within that of
/// the same exact value. Returns the bound for every output entry.
template <class T>
matrix<hp> attention_reorder_bound(const matrix<T>& Q, const matrix<T>& K, const matrix<T>& V,
                                   const attention_options<T>& o = {}) {
  const std::size_t n = K.rows;
  const hp u = convert<hp>(unit_roundoff<T>());
  const hp g = gamma_hp<T>(static_cast<long>(n)) +
               gamma_hp<T>(static_cast<long>(n > 1 ? n - 1 : 1)) + 2 * u;
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

/// Absolute error of one computed sin or cos in T (|result| <= 1):
/// glibc documents at most 1 ulp for sin, cos, sinf, cosf; we allow 2 ulps,
/// and an ulp of a value of magnitude <= 1 is at most 2u, so e_sc = 4u.
/// MPFR is correctly rounded (half an ulp); we allow e_sc = 2u for hp.
/// trig_abs_error_at(u): the same allowance for a kernel working at unit roundoff u.
inline hp trig_abs_error_at(const hp& u) { return 4 * u; }

template <class T>
hp trig_abs_error() {
  const hp u = convert<hp>(unit_roundoff<T>());
  return is_ieee_v<T> ? trig_abs_error_at(u) : 2 * u;
}

/// Relative error of one computed exp in T: glibc's exp and expf are within
/// 1 ulp, i.e. relative 2u; we allow 2 ulps, e_exp = 4u (2u for MPFR).
template <class T>
hp exp_rel_error() {
  const hp u = convert<hp>(unit_roundoff<T>());
  return is_ieee_v<T> ? 4 * u : 2 * u;
}

/// Angle rounding: the angle m w is computed as one rounded product of the
/// position m (an integer, exact in T while |m| < 2^24 for float) and the
/// stored speed w, so |fl(m w) - m w| <= u |m| w (c = 1). The error of the
/// computed sin or cos of that angle against sin(m w), cos(m w) is then
///   eta(m, w) = u |m w| + e_sc
/// (|sin' | <= 1 carries the angle error through unchanged). It grows with |m|.
template <class T>
hp trig_of_angle_error(double m, const T& w) {
  return convert<hp>(unit_roundoff<T>()) * abs(convert<hp>(m) * convert<hp>(w)) +
         trig_abs_error<T>();
}

/// Componentwise error of rope_rotate in T on an exact input x at position
/// `pos`, against the exact rotation with the same stored speeds:
///   x'_a = x_a c - x_b s,  x'_b = x_a s + x_b c, each computed as two rounded
///   products and one rounded sum with |c~|, |s~| <= 1, so
///   |x~'_a - x'_a|, |x~'_b - x'_b| <= (|x_a| + |x_b|) (eta + gamma_2) + 3 floor.
template <class T>
std::vector<hp> rope_rotation_error(const rope_layout<T>& L, const double* pos, const T* x) {
  std::vector<hp> e(L.head_dim, hp(0));
  const hp g2 = gamma_hp<T>(2), fl = underflow_floor<T>();
  for (const auto& pr : L.pairs) {
    const hp eta = trig_of_angle_error<T>(pos[pr.axis], pr.speed);
    const hp b = (abs(convert<hp>(x[pr.a])) + abs(convert<hp>(x[pr.b]))) * (eta + g2) + 3 * fl;
    e[pr.a] = b;
    e[pr.b] = b;
  }
  return e;
}

/// rope_rotation_error for every row of X at its position (as rope_apply).
template <class T>
matrix<hp> rope_apply_error(const rope_layout<T>& L, const matrix<T>& X,
                            const std::vector<std::vector<double>>& positions) {
  matrix<hp> E(X.rows, X.cols);
  for (std::size_t i = 0; i < X.rows; ++i) {
    auto e = rope_rotation_error(L, positions[i].data(), X.row(i));
    for (std::size_t j = 0; j < X.cols; ++j) E(i, j) = e[j];
  }
  return E;
}

/// Error of every entry of sinusoid rows in T against the exact sin/cos of
/// m w with the same stored speeds w: eta(m, w_i) per pair.
template <class T>
matrix<hp> sinusoid_error(const std::vector<double>& positions, const std::vector<T>& w) {
  matrix<hp> E(positions.size(), 2 * w.size());
  for (std::size_t r = 0; r < positions.size(); ++r)
    for (std::size_t i = 0; i < w.size(); ++i)
      E(r, 2 * i) = E(r, 2 * i + 1) = trig_of_angle_error<T>(positions[r], w[i]);
  return E;
}

/// Forward error of a left-to-right dot product of computed vectors a~, b~
/// whose entries are within ea, eb of exact vectors a, b (Higham eq. 3.5 plus
/// the input perturbation):
///   |fl(a~ . b~) - a . b| <= gamma_d sum |a~_j b~_j|
///                            + sum (ea_j |b~_j| + (|a~_j| + ea_j) eb_j) + d floor.
/// ea or eb may be empty (exact inputs).
template <class T>
hp dot_error_bound(const T* a, const std::vector<hp>& ea, const T* b, const std::vector<hp>& eb,
                   std::size_t d) {
  hp s = 0, p = 0;
  for (std::size_t j = 0; j < d; ++j) {
    const hp aa = abs(convert<hp>(a[j])), bb = abs(convert<hp>(b[j]));
    const hp xa = ea.empty() ? hp(0) : ea[j], xb = eb.empty() ? hp(0) : eb[j];
    s += aa * bb;
    p += xa * bb + (aa + xa) * xb;
  }
  return gamma_hp<T>(static_cast<long>(d)) * s + p +
         hp(static_cast<double>(d)) * underflow_floor<T>();
}

/// Error of rope_dot in T against the exact <R(m) q, R(n) k> with the same
/// stored speeds, for exact q, k: the rotated vectors q~, k~ carry
/// rope_rotation_error, then dot_error_bound applies:
///   gamma_d sum |q~_j k~_j| + sum (eq_j |k~_j| + (|q~_j| + eq_j) ek_j) + d floor.
template <class T>
hp rope_dot_error_bound(const rope_layout<T>& L, const T* q, const double* m, const T* k,
                        const double* n) {
  std::vector<T> qr(q, q + L.head_dim), kr(k, k + L.head_dim);
  rope_rotate(L, m, qr.data());
  rope_rotate(L, n, kr.data());
  return dot_error_bound(qr.data(), rope_rotation_error(L, m, q), kr.data(),
                         rope_rotation_error(L, n, k), L.head_dim);
}

/// Row i of a matrix<hp> as a vector (for dot_error_bound).
inline std::vector<hp> row_of(const matrix<hp>& E, std::size_t i) {
  return std::vector<hp>(E.row(i), E.row(i) + E.cols);
}

/// Forward error of attention(Q~, K~, V~) in T (pv::attention, sequential
/// sums, not causal) against the exact attention of exact inputs Q, K, V,
/// where |Q~ - Q| <= eQ, |K~ - K| <= eK, |V~ - V| <= eV entrywise (empty
/// matrices: exact inputs). For query i, with s~_j the computed scores and
/// m~ = max s~:
///  * score error  tau_j = sc (dot bound) + gamma_2 sc |q~.k~| + u |s~_j|
///    (+ u |s~_j - m~| for the max subtraction), sc = 1/sqrt(d): the rounded
///    1/sqrt(d) is within gamma_2 relative;
///  * e~_j = exp(s_j - m~) exp(tau) (1 + e_exp), so the computed exps are the
///    exact exps times factors within [1 - r, 1 + r], r = exp(max tau)(1 + e_exp) - 1,
///    and the normalised weights w_j = e~_j / sum e~ satisfy
///    |w_j - p_j| <= p_j 2r / (1 - r), p_j <= w_j (1 + r) / (1 - r);
///  * summation and division (as attention_reorder_bound): within
///    g (1 + 4g) sum_j w_j |v~_jc|, g = gamma_n + gamma_{n-1} + 2u ((1 + 4g)
///    bounds 1 / (1 - gamma_{n-1}) with slack on the second-order term);
///  * max subtraction: |t~_j - (s~_j - m~)| <= u |t~_j| (1 + 2u) (the (1 + 2u)
///    turns the computed |t~| into the exact one), plus floor.
/// Bound_ic = g (1 + 4g) S + sum_j w_j eV_jc + 2r/(1-r) (1+r)/(1-r) (S + sum_j w_j eV_jc)
///            + 4 n floor (max|v~| + 1),  S = sum_j w_j |v~_jc|,
/// capped by the trivial (2 + 2g) max_j (|v~_jc| + eV_jc) (both outputs are
/// convex combinations of the values) and used as that cap when r >= 1/2.
/// With subtract_max = false the same bound holds for the direct formula
/// exp(s_j) / sum exp(s) (no max subtraction, m~ = 0).
template <class T>
matrix<hp> attention_forward_bound(const matrix<T>& Q, const matrix<T>& K, const matrix<T>& V,
                                   const matrix<hp>& eQ, const matrix<hp>& eK,
                                   const matrix<hp>& eV, const attention_options<T>& o = {},
                                   bool subtract_max = true) {
  assert(!o.causal);
  const std::size_t n = K.rows, d = Q.cols;
  const hp u = convert<hp>(unit_roundoff<T>());
  const hp sc = o.scale ? 1 / sqrt(hp(static_cast<double>(d))) : hp(1);
  const hp g2 = o.scale ? gamma_hp<T>(2) : hp(0);
  const hp g = gamma_hp<T>(static_cast<long>(n)) +
               gamma_hp<T>(static_cast<long>(n > 1 ? n - 1 : 1)) + 2 * u;
  const hp fl = underflow_floor<T>(), eexp = exp_rel_error<T>();
  const T inv_scale = o.scale ? T(1) / sqrt_(T(d)) : T(1);
  matrix<hp> B(Q.rows, V.cols);
  std::vector<T> s(n);
  std::vector<hp> w(n);
  for (std::size_t i = 0; i < Q.rows; ++i) {
    const auto eq = eQ.rows ? row_of(eQ, i) : std::vector<hp>{};
    std::vector<hp> tau(n);
    for (std::size_t j = 0; j < n; ++j) {
      const T dt = dot(Q.row(i), K.row(j), d);
      s[j] = dt * inv_scale;
      const auto ek = eK.rows ? row_of(eK, j) : std::vector<hp>{};
      tau[j] = sc * dot_error_bound(Q.row(i), eq, K.row(j), ek, d) +
               g2 * sc * abs(convert<hp>(dt)) + u * abs(convert<hp>(s[j])) + fl;
    }
    T m = subtract_max ? s[0] : T(0);
    for (std::size_t j = 1; j < n && subtract_max; ++j)
      if (s[j] > m) m = s[j];
    hp z = 0, tmax = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const T t = T(s[j] - m);
      tau[j] += u * abs(convert<hp>(t)) * (1 + 2 * u) + fl;
      if (tau[j] > tmax) tmax = tau[j];
      w[j] = convert<hp>(exp_(t));
      z += w[j];
    }
    for (auto& x : w) x /= z;
    const hp r = exp(tmax) * (1 + eexp) - 1;
    for (std::size_t c = 0; c < V.cols; ++c) {
      hp S = 0, EV = 0, vmax = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const hp v = abs(convert<hp>(V(j, c)));
        const hp ev = eV.rows ? eV(j, c) : hp(0);
        S += w[j] * v;
        EV += w[j] * ev;
        if (v + ev > vmax) vmax = v + ev;
      }
      const hp trivial = (2 + 2 * g) * vmax + 4 * hp(static_cast<double>(n)) * fl;
      hp b = trivial;
      if (r < hp(0.5)) {
        b = g * (1 + 4 * g) * S + EV + 2 * r / (1 - r) * (1 + r) / (1 - r) * (S + EV) +
            4 * hp(static_cast<double>(n)) * fl * (vmax + 1);
        if (trivial < b) b = trivial;
      }
      B(i, c) = b;
    }
  }
  return B;
}

/// Forward error of apply_conv in T on exact inputs: each output is a sum of
/// the bias and k <= 9 c_in products, summed left to right, so
///   |out~ - out| <= gamma_{k+1} (|bias| + sum |w x|) + k floor
/// over the taps inside the grid (Higham eq. 3.5).
template <class T>
matrix<hp> conv_error_bound(const conv3x3<T>& k, const matrix<T>& X, std::size_t H,
                            std::size_t W) {
  matrix<hp> B(H * W, k.c_out);
  for (std::size_t r = 0; r < H; ++r)
    for (std::size_t c = 0; c < W; ++c)
      for (std::size_t o = 0; o < k.c_out; ++o) {
        hp s = abs(convert<hp>(k.bias[o]));
        long taps = 0;
        for (int dr = 0; dr < 3; ++dr)
          for (int dc = 0; dc < 3; ++dc) {
            long rr = static_cast<long>(r) + dr - 1, cc = static_cast<long>(c) + dc - 1;
            if (rr < 0 || cc < 0 || rr >= static_cast<long>(H) || cc >= static_cast<long>(W))
              continue;
            for (std::size_t i = 0; i < k.c_in; ++i, ++taps)
              s += abs(convert<hp>(k.at(o, i, dr, dc)) * convert<hp>(X(rr * W + cc, i)));
          }
        B(r * W + c, o) = gamma_hp<T>(taps + 1) * s + hp(static_cast<double>(taps)) * underflow_floor<T>();
      }
  return B;
}

/// Single-speed aliasing: with w~ the stored speed for w = 2 pi p / q, the
/// angles of distances D and D + q differ by q w~ = 2 pi p + delta. Returned:
///  * IEEE T: w~ is exact in hp, delta = |q w~ - 2 pi p| is evaluated in hp,
///    plus 8 u_hp 2 pi p for that evaluation (pi, the product q w~ and the
///    difference round: 3 u_hp 2 pi p; 8 is declared slack over the 3);
///  * hp: w~ = 2 pi~ p / q carries pi's rounding and three rounded operations,
///    |delta| <= gamma_4 2 pi p; returned is 2 gamma_4 2 pi p (the factor 2 is
///    declared slack for the rounding of q w~ in the law's own evaluation).
template <class T>
hp speed_period_defect(const T& w, long p, long q) {
  const hp two_pi_p = 2 * ref::pi() * hp(static_cast<double>(p));
  const hp uh = ref::unit_roundoff();
  if constexpr (is_ieee_v<T>)
    return abs(hp(static_cast<double>(q)) * convert<hp>(w) - two_pi_p) + 8 * uh * two_pi_p;
  else
    return 4 * uh / (1 - 4 * uh) * two_pi_p * 2;
}

/// Residual bound of the sinusoid's linear shift law in T, per component r:
/// |p~(m + k)_r - (M~_k p~(m))_r| with p~ = sinusoid_with_speeds<T>, M~_k =
/// sinusoid_shift_map<T> and the product a left-to-right d-term dot. Since
/// M_k p(m) = p(m + k) exactly, the residual is within the error of
/// p~(m + k) (eta(m + k, w)) plus the dot bound of M~ p~ with input errors
/// eM = eta(k, w) on M's block and ep = eta(m, w) on p(m) (dot_error_bound).
/// Positions m, k, m + k must be exact in T.
template <class T>
std::vector<hp> sinusoid_shift_bound(const std::vector<T>& w, double m, double k) {
  const auto P = sinusoid_with_speeds<T>({m}, w);
  const auto M = sinusoid_shift_map<T>(w, k);
  const auto E = sinusoid_error<T>({m, m + k}, w);
  const std::vector<hp> ep(E.row(0), E.row(0) + E.cols);
  std::vector<hp> B(M.rows);
  for (std::size_t r = 0; r < M.rows; ++r) {
    std::vector<hp> eM(M.cols, hp(0));
    const std::size_t i = r / 2;  // the 2 x 2 block of row r
    eM[2 * i] = eM[2 * i + 1] = trig_of_angle_error<T>(k, w[i]);
    B[r] = dot_error_bound(M.row(r), eM, P.row(0), ep, M.cols) + E(1, r);
  }
  return B;
}

}  // namespace pv
