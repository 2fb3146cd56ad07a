// The a-priori bound B of one attention output entry against the exact value
// of its inputs, valid for any order of the sums over keys: the tolerance the
// black-box attention laws build on, since a user's kernel may sum
// recursively, pairwise, in blocks or online, and we cannot know which.
//   B_ic = [(e^{2D_i} - 1) + gamma_{4n+4} e^{2D_i}] sum_j p_ij |v_jc| + n mu |v|_max,c
//   D_i  = max_j [gamma_{d+3} sum_l |q_il k_jl| / sqrt(d) + u |s_ij - max_j s_ij| + 2u]
// D bounds the error of a computed score after the max-subtraction and exp,
// each rounding at most one ulp (Higham 3.5 for the dot products); a relative
// score error D changes each weight by at most a factor e^{+-D}, the
// normalised weights by e^{+-2D}; the sums over keys -- recursive, pairwise,
// blocked or online with one rescaling per key -- cost at most gamma_{4n+4};
// mu is the smallest normal number, the absolute error of an exponential that
// underflows.
//
// A storage class (16-bit inputs, float32 arithmetic: --accuracy float16 or
// bfloat16, or a 16-bit wire) rounds q, k, v and the output to a format of unit
// roundoff u_s while every sum runs at the arithmetic's u. Counting the storage
// at u_s and the sums at u: each product of stored inputs is within
// g_s = (1 + u_s)^2 - 1 of q_l k_jl, and the dot product of the stored values
// within gamma_{d+3} of theirs, so the score's error is at most
// (gamma_{d+3} (1 + g_s) + g_s) sum_l |q_l k_jl| / sqrt(d) in place of
// gamma_{d+3} sum_l ...; a stored value and the stored output are within
// (1 + u_s)^2 of theirs, so the sums' gamma_{4n+4} becomes
// (1 + u_s)^2 (1 + gamma_{4n+4}) - 1. Counting the storage inside gamma_{4n+4}
// at u_s instead makes B infinite from n = 1/(4 u_s) - 1 keys (511 for float16).
//
// A class that also keeps the weighted sum of v in a 16-bit format
// (--accuracy float16-pv-accumulation: a float16 K/V cache whose p v
// accumulator is float16, scores and the sum of weights in float32) rounds
// that sum once per addition and once per rescaling of a streamed softmax:
// every term passes through at most 2n + 2 such roundings, so gamma_{4n+4}
// (with its storage) becomes (1 + that) (1 + gamma_{2n+2}(u_pv)) - 1, and
// each of those roundings may underflow: (2n + 2) eta_pv more, eta_pv the
// format's subnormal spacing. From n = 1/(2 u_pv) - 1 keys (1023 for float16)
// B is infinite: such an accumulator is not bounded there.
//
// Each law says how it uses B in its own header: attention.permutation_
// equivariance and attention.key_value_permutation 2 B (two outputs, each
// within B of the same exact value), attention.score_shift the sum of the two
// calls' B, attention.convex_hull B, attention.reference errors in units of B,
// attention.shapes B evaluated in binary64 (any_order_binary64).
#pragma once

#include "numerics/matrix.h"
#include "numerics/scalar.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace pv::laws::attention_bound {

/// gamma_n = n u / (1 - n u) at the unit roundoff u (infinite when n u >= 1).
inline hp gamma_at(long n, const hp& u) {
  const hp nu = hp(static_cast<double>(n)) * u;
  return nu < 1 ? hp(nu / (1 - nu)) : hp(std::numeric_limits<double>::infinity());
}

/// g_s = (1 + u_s)^2 - 1: two roundings into a storage format (file comment).
inline hp storage_pair(const hp& us) { return (1 + us) * (1 + us) - 1; }

/// B of every output entry of softmax(Q K^T / sqrt(d)) V, in hp: u the unit
/// roundoff of the arithmetic judged, mu the absolute error of an exp that
/// underflows (the smallest normal of the format it accumulates in), us the
/// unit roundoff of a storage format holding q, k, v and the output (0: none).
/// upv, eta_pv: the unit roundoff and subnormal spacing of a 16-bit p v
/// accumulator (0: the sums at u; file comment).
template <class T>
matrix<hp> any_order(const matrix<T>& Q, const matrix<T>& K, const matrix<T>& V, const hp& u, const hp& mu,
                     const hp& us = hp(0), const hp& upv = hp(0), const hp& eta_pv = hp(0)) {
  const std::size_t n = K.rows, d = Q.cols;
  const hp gs = storage_pair(us);
  const hp gd = us > 0 ? hp(gamma_at(long(d) + 3, u) * (1 + gs) + gs) : gamma_at(long(d) + 3, u),
           gn0 = us > 0 ? hp(gs + gamma_at(4 * long(n) + 4, u) * (1 + gs)) : gamma_at(4 * long(n) + 4, u),
           gn = upv > 0 ? hp((1 + gn0) * (1 + gamma_at(2 * long(n) + 2, upv)) - 1) : gn0;
  const hp under_pv = upv > 0 ? hp(hp(2.0 * double(n) + 2) * eta_pv) : hp(0);
  const hp rs = hp(1) / sqrt(hp(static_cast<double>(d)));
  matrix<hp> B(Q.rows, V.cols);
  for (std::size_t i = 0; i < Q.rows; ++i) {
    std::vector<hp> s(n), a(n);
    for (std::size_t j = 0; j < n; ++j) {
      hp dot = 0, ab = 0;
      for (std::size_t l = 0; l < d; ++l) {
        hp t = convert<hp>(Q(i, l)) * convert<hp>(K(j, l));
        dot += t;
        ab += abs(t);
      }
      s[j] = dot * rs;
      a[j] = ab * rs;
    }
    hp m = *std::max_element(s.begin(), s.end());
    hp D = 0, z = 0;
    std::vector<hp> p(n);
    for (std::size_t j = 0; j < n; ++j) {
      const hp Dj = gd * a[j] + u * abs(s[j] - m) + 2 * u;
      if (D < Dj) D = Dj;
      p[j] = exp(s[j] - m);
      z += p[j];
    }
    hp e2 = exp(2 * D);
    for (std::size_t c = 0; c < V.cols; ++c) {
      hp S = 0, vmax = 0;
      for (std::size_t j = 0; j < n; ++j) {
        S += p[j] / z * abs(convert<hp>(V(j, c)));
        const hp av = abs(convert<hp>(V(j, c)));
        if (vmax < av) vmax = av;
      }
      B(i, c) = ((e2 - 1) + gn * e2) * S + hp(static_cast<double>(n)) * mu * vmax + under_pv;
    }
  }
  return B;
}

/// B in words (the black-box laws quote it in their tolerance).
inline std::string any_order_rule() {
  return "B = [(e^{2D} - 1) + gamma_{4n+4} e^{2D}] sum_j p_j |v_jc| + n mu max_j |v_jc|, "
         "D = max_j [gamma_{d+3} sum_l |q_l k_jl| / sqrt(d) + u |s_j - max s| + 2u] "
         "(a-priori bound of one output entry against the exact value: score dot products "
         "gamma_{d+3}, max-subtraction and exp one ulp each, sums over keys in any order "
         "or streamed with one rescaling per key gamma_{4n+4}, mu = smallest normal for "
         "underflowing exponentials; under a storage class of unit roundoff u_s, q, k, v and the "
         "output stored at u_s and the sums at the arithmetic's u: gamma_{d+3} (1 + g_s) + g_s "
         "in D and (1 + u_s)^2 (1 + gamma_{4n+4}) - 1 for gamma_{4n+4}, g_s = (1 + u_s)^2 - 1; "
         "with a 16-bit p v accumulator of unit roundoff u_pv also (1 + gamma_{2n+2}(u_pv)) on that "
         "factor and (2n + 2) eta_pv for its underflow; "
         "underflowing exponentials)";
}

namespace detail {

inline double gamma_d(double n, double u) { return n * u < 1 ? n * u / (1 - n * u) : INFINITY; }

/// Runs body(i) for i in [0, n) on every core.
template <class F>
void parallel_rows(std::size_t n, F body) {
  const unsigned t = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), unsigned(n)));
  if (t <= 1 || n < 64) {
    for (std::size_t i = 0; i < n; ++i) body(i);
    return;
  }
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < t; ++w)
    pool.emplace_back([&, w] {
      for (std::size_t i = w; i < n; i += t) body(i);
    });
  for (auto& th : pool) th.join();
}

}  // namespace detail

/// B of every entry (row-major n_q x d_v) evaluated in binary64 and made an
/// upper bound of its exact value (its own rounding counted), for the sizes
/// where hp would take minutes. u: the unit roundoff of the arithmetic
/// judged; mu: the absolute error of an exp that underflows (smallest
/// normal); eta: the spacing of the subnormals (the absolute error of any
/// operation whose result underflows; 0 for MPFR), which adds (d + 3) eta to
/// D and (4n + 4) eta to B.
/// us: the unit roundoff of a storage class (any_order's; 0: none), its two
/// roundings rounded up by (1 + 2^-40) in binary64; upv: that of a 16-bit
/// p v accumulator (any_order's; its underflow at eta's spacing).
inline std::vector<double> any_order_binary64(const double* q, const double* k, const double* v,
                                              std::size_t n_q, std::size_t n_k, std::size_t d,
                                              std::size_t d_v, double u, double mu, double eta,
                                              double us = 0, double upv = 0) {
  using detail::gamma_d;
  std::vector<double> B(n_q * d_v, 0.0);
  const double u53 = 0x1p-53, sc = 1 / std::sqrt(double(d));
  const double gs = us > 0 ? (2 * us + us * us) * (1 + 0x1p-40) : 0;
  const double gd = us > 0 ? (gamma_d(double(d + 3), u) * (1 + gs) + gs) * (1 + 0x1p-40) : gamma_d(double(d + 3), u),
               gn0 = us > 0 ? (gs + gamma_d(double(4 * n_k + 4), u) * (1 + gs)) * (1 + 0x1p-40)
                            : gamma_d(double(4 * n_k + 4), u),
               gn = upv > 0 ? ((1 + gn0) * (1 + gamma_d(double(2 * n_k + 2), upv)) - 1) * (1 + 0x1p-40) : gn0,
               under_pv = upv > 0 ? double(2 * n_k + 2) * eta * (1 + 0x1p-40) : 0;
  // the binary64 evaluation: scores within gamma_{d+3}(u53) sum|q k| / sqrt(d)
  // (+ u53 |s - max| for the subtraction), so each weight within e^{2 D53};
  // exp, the sums and the quotient within (1 + gamma_{n+8}(u53))
  const double own = (1 + gamma_d(double(n_k + 8), u53)) * (1 + 0x1p-40);
  std::vector<double> vmax(d_v, 0.0);
  for (std::size_t j = 0; j < n_k; ++j)
    for (std::size_t c = 0; c < d_v; ++c) vmax[c] = std::max(vmax[c], std::abs(v[j * d_v + c]));
  detail::parallel_rows(n_q, [&](std::size_t i) {
    std::vector<double> s(n_k), a(n_k);
    for (std::size_t j = 0; j < n_k; ++j) {
      double dot = 0, ab = 0;
      for (std::size_t l = 0; l < d; ++l) {
        const double p = q[i * d + l] * k[j * d + l];
        dot += p;
        ab += std::abs(p);
      }
      s[j] = dot * sc;
      a[j] = ab * sc;
    }
    const double m = *std::max_element(s.begin(), s.end());
    double D = 0, D53 = 0, z = 0;
    for (std::size_t j = 0; j < n_k; ++j) {
      D = std::max(D, gd * a[j] + u * std::abs(s[j] - m) + 2 * u + double(d + 3) * eta);
      D53 = std::max(D53, gamma_d(double(d + 3), u53) * a[j] + u53 * std::abs(s[j] - m));
      s[j] = std::exp(s[j] - m);
      z += s[j];
    }
    const double rel = (std::expm1(2 * D) + gn * std::exp(2 * D)) * std::exp(2 * D53) * own;
    for (std::size_t c = 0; c < d_v; ++c) {
      double num = 0;
      for (std::size_t j = 0; j < n_k; ++j) num += s[j] * std::abs(v[j * d_v + c]);
      const double b =
          rel * (num / z) + double(n_k) * mu * vmax[c] * (1 + 0x1p-40) + double(4 * n_k + 4) * eta + under_pv;
      B[i * d_v + c] = std::isnan(b) ? INFINITY : b;
    }
  });
  return B;
}

}  // namespace pv::laws::attention_bound
