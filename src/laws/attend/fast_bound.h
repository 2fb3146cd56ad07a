// any_order()'s bound (problem.h) computed in binary64 and double-word
// arithmetic instead of MPFR, rounded upward by a stated margin: every entry
// is at least the bound MPFR computes and above it by a relative 2^-30 at
// most; a bound MPFR gives as 0, or as its underflow term alone, is that
// exactly. tests/laws/attend/fast_bound_test.cpp checks all three on every
// feature.
// The bound is the whole tolerance of the attend laws that compare two calls
// of a kernel, and half the work of those that compare with the exact value:
// computed by MPFR it was about nine tenths of a check's time.
//
// Per row, the quantities of bound_row(), each with its error (u = 2^-53):
// - the dot product q.k_j by Dot2 (Ogita, Rump and Oishi 2005) kept as a
//   double-word: |err| <= 2 gamma_{d+1}^2 sum_l |q_l k_jl|; x_j = scale dot,
//   the scale rounded to a double-word (JMP's DWTimesDW3: 5 u^2, reference/
//   fast/dd.h); a_j = |scale| sum_l |q_l k_jl| rounded up by gamma_{d+8};
// - the softcap c tanh(x_j / c) in binary64: x_j rounded (|lo|), x_j / c (u),
//   tanh within 4 ulps (glibc's: 2), times c (u); tanh's slope is at most 1,
//   so |err| <= 2u |x_j| + 10u |t_j| + |lo| besides the error of x_j;
// - ALiBi's slope (j - p) exactly by TwoProd, the explicit bias exactly, the
//   logit s_j a double-word off by (64 + 8d) u^2 (|x_j| + |b_j| + |beta_j| + |s_j|)
//   more; delta the largest error over the row's keys; m the largest logit
//   (or the sink), off by delta at most;
// - e^{s_j - m} from the double-word difference rounded to binary64
//   (u |s_j - m|) and glibc's exp (4 ulps): within e^{+-Delta} of the exact
//   term, Delta = 2 delta + 2u max_j |s_j - m| + 10u, so the sums over keys
//   S / Z within e^{2 Delta} <= 1 + 6 Delta (Delta <= 2^-20) and
//   1 + gamma_{2n+8} (the sums in binary64, the quotient);
// - D from binary64 sums of nonnegative terms (gamma_{d+24}) whose
//   magnitudes are off by delta + Delta at most (8 (gd + 8u + 4 u_s) (delta + Delta)
//   added);
// - the unit roundoffs and gammas of bound_factors rounded up from MPFR;
//   e^{2D}, e^{2D} - 1 and ln Z within 4 ulps (1 + gamma_16), the last
//   products (1 + 4u). Underflow: a term e^{s_j - m} below 2^-1022 loses at
//   most 2^-1074, covered by (n + 1) 2^-1070 (1 + max_j |v_jc|) (Z >= 1: the
//   largest term is 1); a subnormal underflow term by 2^-1070 more.
//
// A row the argument does not cover is computed by MPFR as before: an empty
// row (its bound is exact work on V), a row that sees the sink alone (its
// outputs are exactly 0, and so is their bound), a row with a visible input
// that is not finite or beyond 2^500 in size, a logit beyond 2^500, or
// Delta > 2^-20. So is every row of a wrong reading (the diagnosis's
// variants).
#pragma once

#include "laws/attend/problem.h"
#include "reference/fast/dd.h"
#include "reference/fast/fast.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace pv::laws::attend_fast_bound {

using attend::any_order_mp;
using attend::bias_at;
using attend::bound_factors;
using attend::bounds;
using attend::bounds_for;
using attend::empty_rows;
using attend::kv_head;
using attend::mp;
using attend::problem;
using attend::row_set;
using attend::scale_of;
using attend::units;
using attend::visible;
using attend::wanted;

namespace detail {

/// x rounded toward +inf to binary64.
inline double up(const hp& x) { return mpfr_get_d(mp(x), MPFR_RNDU); }

/// Higham's gamma_n for binary64, itself rounded up (n u < 2^-20 here).
inline double gamma64(double n) { return fast::gamma_n(n) * (1 + 0x1p-50); }

/// The problem's constants (bound_factors, units) rounded up.
struct factors {
  factors(const problem& P, const units& U) {
    const bound_factors F(P, U);
    n = F.n;
    gd = up(F.gd);
    gn = up(F.gn);
    u = up(U.u);
    us = up(U.us);
    mu = up(U.mu);
    eta_s = up(U.eta_s);
    eta_pv = up(U.eta_pv);
    pv = U.upv > 0;
    const fast::dd s = fast::to_dd(scale_of(P));
    sc = s;
    asc = std::fabs(s.hi) * (1 + 0x1p-50);
  }
  long n = 0;
  double gd = 0, gn = 0, u = 0, us = 0, mu = 0, eta_s = 0, eta_pv = 0, asc = 0;
  bool pv = false;
  fast::dd sc;
};

/// underflow_term() rounded up.
inline double underflow_up(const factors& f, double vmax) {
  const double n = double(f.n);
  double t = n * f.mu * vmax + (f.pv ? (2 * n + 2) * f.eta_pv : 0.0) + f.eta_s / 2;
  return t * (1 + 0x1p-50) + 0x1p-1070;
}

/// One key of a row: its logit (double-word) and the magnitudes D counts.
struct key {
  long j = 0;
  fast::dd s;
  double a = 0, x = 0, t = 0, b = 0, beta = 0;
};

inline bool less(const fast::dd& a, const fast::dd& b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }

/// MPFR's sample: one call in 16 (counted per process) computes its first
/// binary64 row by MPFR too, and the two must agree as the file comment
/// says (at least MPFR's, at most 2^-30 above, each up to MPFR's own
/// rounding), or it throws: the run stops with exit 2 and "posverify
/// fault: ..." naming the entry, no report written (a verdict on a bound
/// not known to hold would be worth nothing). Every run checks the argument
/// on real problems, not only the tests.
inline void sample(const problem& P, empty_rows conv, const units& U, const row_set* rows, const row_set& slow,
                   const bounds& B) {
  static std::atomic<unsigned long> calls{0};
  if (calls++ % 16 != 0) return;
  std::size_t first = slow.size();
  for (std::size_t li = 0; li < slow.size() && first == slow.size(); ++li)
    if (wanted(rows, li) && !slow[li]) first = li;
  if (first == slow.size()) return;
  row_set one(slow.size(), 0);
  one[first] = 1;
  const bounds M = any_order_mp(P, conv, U, &one);
  // MPFR's own rounding at the run's precision p: e^{2D} - 1 with D >= 2u >= 2^-52
  // loses up to 2^(51 - p) of itself (2^-77 at the default 128 bits)
  const hp slack = hp(std::ldexp(1.0, 56 - int(ref::precision_bits())));
  const auto check = [&](const hp& f, const hp& m, const char* what, std::size_t at) {
    if (f >= m * (1 - slack) && f <= m * (1 + hp(0x1p-30) + slack) + hp(0x1p-1000)) return;
    throw std::logic_error(std::string("posverify fault: the attend bound in binary64 of ") + what + " " +
                           std::to_string(at) + " is " + ref::to_decimal(f, 17) + ", MPFR's " +
                           ref::to_decimal(m, 17) + " (laws/attend/fast_bound.h)");
  };
  check(B.lse[first], M.lse[first], "log-sum-exp", first);
  for (long b = 0; b < P.batch; ++b)
    for (long h = 0; h < P.h_q; ++h)
      for (long i = 0; i < P.n_q; ++i)
        if (P.li(b, h, i) == first)
          for (long c = 0; c < P.d_v; ++c) check(B.out[P.oi(b, i, h, c)], M.out[P.oi(b, i, h, c)], "output entry", P.oi(b, i, h, c));
}

}  // namespace detail

/// any_order(P, conv, U, rows) with the reading the problem states (the
/// file comment): the same entries, each rounded up by at most a relative
/// 2^-30. Rows the argument does not cover are MPFR's.
inline bounds any_order_fast(const problem& P, empty_rows conv, const units& U, const row_set* rows = nullptr) {
  namespace fb = detail;
  using fast::dd;
  const double u64 = fast::u, big = 0x1p500;
  bounds B = bounds_for(P);
  const fb::factors f(P, U);
  const bool sinks = !P.sink.empty(), capped = P.softcap > 0, alibi = !P.alibi.empty(), biased = !P.bias.empty();
  const double c = P.softcap, n = double(f.n);
  const double g_dot = 2 * fb::gamma64(double(P.d + 1)) * fb::gamma64(double(P.d + 1)) * (1 + 0x1p-50);
  const double g_ab = fb::gamma64(double(P.d + 8));
  const double g_dd = (64 + 8 * double(P.d)) * fast::u2;
  row_set slow(P.lse_size(), 0);
  bool any_slow = false;
  std::vector<fb::key> ks;
  ks.reserve(std::size_t(P.n_k));
  std::vector<double> e(std::size_t(P.n_k));
  for (long b = 0; b < P.batch; ++b)
    for (long h = 0; h < P.h_q; ++h) {
      const long g = kv_head(P, h);
      const double sink = sinks ? P.sink[std::size_t(h)] : 0.0;
      for (long i = 0; i < P.n_q; ++i) {
        const std::size_t li = P.li(b, h, i);
        if (!wanted(rows, li)) continue;
        const auto fallback = [&] {
          slow[li] = 1;
          any_slow = true;
        };
        const long p = P.q_start[std::size_t(b)] + i;
        const double* q = &P.q[P.qi(b, i, h, 0)];
        ks.clear();
        bool ok = !sinks || std::fabs(sink) <= big;
        double delta = 0;
        for (long j = 0; j < P.n_k && ok; ++j) {
          if (!visible(P, b, i, j)) continue;
          const double* k = &P.k[P.ki(b, j, g, 0)];
          // Dot2: S + C, the products' and the sums' errors in C
          double S = 0, C = 0, ab = 0;
          for (long l = 0; l < P.d; ++l) {
            double pr, er, t;
            fast::two_prod(q[l], k[l], pr, er);
            fast::two_sum(S, pr, S, t);
            C += t + er;
            ab += std::fabs(pr);
          }
          dd dot;
          fast::two_sum(S, C, dot.hi, dot.lo);
          fb::key K;
          K.j = j;
          K.a = f.asc * ab * (1 + g_ab);  // at least |scale| sum_l |q_l k_jl|
          const dd x = fast::mul(dot, f.sc);
          K.x = std::fabs(x.hi);
          double err = g_dot * K.a + 8 * fast::u2 * K.x;
          dd s = x;
          if (capped) {
            const double t = c * std::tanh(x.hi / c);
            K.t = std::fabs(t);
            err += 2 * u64 * K.x + 10 * u64 * K.t + std::fabs(x.lo);
            s = dd{t, 0};
          }
          if (alibi) {  // exact, but below 2^-1022 TwoProd may lose up to 2^-1074
            dd bj;
            fast::two_prod(P.alibi[std::size_t(h)], double(j - p), bj.hi, bj.lo);
            err += 0x1p-1060;
            K.b = std::fabs(bj.hi);
            s = fast::add(s, bj);
          }
          if (biased) {
            const double beta = P.bias[bias_at(P, b, i, j)];
            K.beta = std::fabs(beta);
            if (!(K.beta <= big)) ok = false;
            s = fast::add(s, beta);
          }
          K.s = s;
          if (!(K.a <= big && K.x <= big && K.b <= big && std::fabs(s.hi) <= big)) ok = false;
          err += g_dd * (K.x + K.b + K.beta + std::fabs(s.hi));
          delta = std::max(delta, err);
          for (long cc = 0; cc < P.d_v; ++cc)
            if (!(std::fabs(P.v[P.vi(b, j, g, cc)]) <= big)) ok = false;
          ks.push_back(K);
        }
        if (!ok || ks.empty()) {  // an empty row, or the sink alone (outputs exactly 0, bound 0)
          fallback();
          continue;
        }
        // m: the largest logit, or the sink
        dd m = sinks ? dd{sink, 0} : ks[0].s;
        for (const fb::key& K : ks)
          if (fb::less(m, K.s)) m = K.s;
        const dd mneg = fast::neg(m);
        double z = 0, dmax = sinks ? std::fabs(fast::add(mneg, sink).hi) : 0.0;
        if (sinks) z = std::exp(fast::add(mneg, sink).hi);
        for (std::size_t t = 0; t < ks.size(); ++t) {
          const double dj = fast::add(ks[t].s, mneg).hi;
          dmax = std::max(dmax, std::fabs(dj));
          e[t] = std::exp(dj);
          z += e[t];
        }
        const double Delta = 2 * delta + 2 * u64 * dmax + 10 * u64;
        if (!(Delta <= 0x1p-20) || !(z >= 1) || !std::isfinite(z)) {
          fallback();
          continue;
        }
        // D (bound_row's), from the binary64 magnitudes
        const double mh = m.hi, u = f.u, us = f.us;
        double D = sinks ? 3 * u * std::fabs(sink) + u * std::fabs(sink - mh) + 2 * u : 0.0;
        for (const fb::key& K : ks) {
          const double s = std::fabs(K.s.hi);
          double ej = f.gd * K.a;
          if (capped) ej += u * K.x + 5 * u * K.t + us * (K.x + 2 * K.t);
          if (alibi) ej += 3 * u * K.b + u * s + us * (K.b + s);
          if (biased) ej += 3 * u * K.beta + u * s + us * (K.beta + s);
          D = std::max(D, ej + 2 * u * s + u * std::fabs(K.s.hi - mh) + 2 * u);
        }
        const double off = delta + Delta;  // what each magnitude in D may be off by
        D = D * (1 + fb::gamma64(double(P.d + 24))) + 8 * (f.gd + 8 * u + 4 * us) * off;
        const double e2 = std::exp(2 * D);
        const double rel = (std::expm1(2 * D) + f.gn * e2) * (1 + fb::gamma64(16));
        const double grow = (1 + 6 * Delta) * (1 + fb::gamma64(2 * n + 8));
        for (long cc = 0; cc < P.d_v; ++cc) {
          double S = 0, vmax = 0;
          for (std::size_t t = 0; t < ks.size(); ++t) {
            const double av = std::fabs(P.v[P.vi(b, ks[t].j, g, cc)]);
            S += e[t] * av;
            vmax = std::max(vmax, av);
          }
          if (vmax == 0) {  // every value 0: the output is exactly 0, MPFR's bound its underflow term alone
            B.out[P.oi(b, i, h, cc)] = attend::underflow_term(f.n, U, hp(0));
            continue;
          }
          const double Sz = (S / z) * grow + (n + 1) * 0x1p-1070 * (1 + vmax);
          B.out[P.oi(b, i, h, cc)] = hp((rel * Sz) * (1 + 4 * u64) + fb::underflow_up(f, vmax));
        }
        const double lse = mh + std::log(z);
        const double lse_err = delta + Delta + fb::gamma64(2 * n + 8);
        B.lse[li] = hp((D + f.gn + n * f.mu + 2 * u * (std::fabs(lse) + std::fabs(mh) + 2 * lse_err) + u) *
                       (1 + fb::gamma64(16)));
      }
    }
  fb::sample(P, conv, U, rows, slow, B);
  if (any_slow) {
    const bounds M = any_order_mp(P, conv, U, &slow);
    for (std::size_t li = 0; li < slow.size(); ++li)
      if (slow[li]) B.lse[li] = M.lse[li];
    for (long b = 0; b < P.batch; ++b)
      for (long h = 0; h < P.h_q; ++h)
        for (long i = 0; i < P.n_q; ++i)
          if (slow[P.li(b, h, i)])
            for (long cc = 0; cc < P.d_v; ++cc) B.out[P.oi(b, i, h, cc)] = M.out[P.oi(b, i, h, cc)];
  }
  return B;
}

}  // namespace pv::laws::attend_fast_bound

namespace pv::laws::attend {

/// The bound every attend law takes: the problem's own reading in binary64
/// (any_order_fast), a wrong reading of the diagnosis by MPFR.
inline bounds any_order(const problem& P, empty_rows conv, const units& U, const row_set* rows = nullptr,
                        const variant& w = {}) {
  return w == variant{} ? attend_fast_bound::any_order_fast(P, conv, U, rows) : any_order_mp(P, conv, U, rows, w);
}

inline bounds any_order(const problem& P, empty_rows conv, const hp& u, const hp& mu) {
  return any_order(P, conv, units{u, mu});
}

/// The exact outputs (MPFR) and the bound of the same problem, reading and
/// rows: the bound as any_order() computes it.
inline exact_and_bounds reference_and_bound(const problem& P, empty_rows conv, const units& U,
                                            const variant& w = {}, const row_set* rows = nullptr) {
  if (!(w == variant{})) return reference_and_bound_mp(P, conv, U, w, rows);
  return {reference(P, conv, w, rows), attend_fast_bound::any_order_fast(P, conv, U, rows)};
}

}  // namespace pv::laws::attend
