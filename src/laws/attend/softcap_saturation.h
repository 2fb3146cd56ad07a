// attend.softcap_saturation, written once: the cap is not ignored where the
// scores pass it. A softcap c turns the score x (after the scale) into
// c tanh(x/c), which saturates: where |x| >> c, doubling x moves the capped
// logit by
//   delta_j = c |tanh(2 x_j / c) - tanh(x_j / c)| <= 2 c e^{-2|x_j|/c},
// so the call with every query doubled (exact in every format) must give each
// row's output and log-sum-exp of the call within what that move allows. The
// cases draw scores away from 0 (blackbox/attend_laws.cpp: component 0 of
// every key +-1 and of every query one magnitude, large enough that every
// |x_j| is within a factor 5/3 of the others) and pick c from them: the
// smallest |x_j| is within [t, 2t) c, t = 12 for a float32 or 16-bit call
// (delta_j <= 2 c e^{-24} < 2^-33 c, below float32's rounding of the logits;
// the largest |x_j| at most 40c, so that e^{2x/c}, as a kernel may compute
// tanh, stays finite in float32) and t = 32 for float64 (2 c e^{-64}). So
// the moves are far below the calls' own bounds, and a correct kernel is
// judged by its rounding as in the laws that compare two calls (the
// tolerance takes each move's bound as it is); the masks, bias, ALiBi and sinks,
// added after the cap, are the same in both calls. A kernel that ignores the
// cap, or caps with a formula that does not saturate (s tanh(s/c), a swish),
// doubles its logits and moves every row by far more.
//
// The move of a row: with every capped logit moved by at most delta (a
// sink's does not move), each weight moves by a factor within e^{+-2 delta},
// so |out'_c - out_c| <= (e^{2 delta} - 1) max_j |v_jc| over the visible
// keys (the weights sum to at most 1; a sink's value is 0), and
// |lse' - lse| <= delta. delta is bounded in binary64, rounded up
// (largest_move: c min(1, 2 e^{-2|x|/c}) at a lower bound on each |x_j|).
//
// Exactness class: within a reassociation bound and the stated move: each
// call within its bound of its exact row (problem.h), the exact rows within
// the move above: |out' - out| <= B + B' + (e^{2 delta} - 1) max_j |v_jc|,
// |lse' - lse| <= B_lse + B'_lse + delta.
// Judge: the black-box check (blackbox/attend_laws.cpp), which names the call
// that is off its exact value and, with attend.reference's variants, the
// class (softcap ignored, the softcap's formula).
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/problem.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace pv::laws::attend_softcap_saturation {

inline constexpr const char* id = "attend.softcap_saturation";

inline std::string statement() {
  return "a softcap saturates: with every score at least 12c from 0 (32c in float64), doubling the queries moves "
         "each capped logit c tanh(x/c) by at most c |tanh(2x/c) - tanh(x/c)|, and each row's output and log-sum-exp "
         "by no more than that move allows";
}

inline std::string tolerance_rule() {
  return "|out' - out| <= B + B' + (e^{2 delta} - 1) max_j |v_jc| per output entry and |lse' - lse| <= B_lse + "
         "B'_lse + delta per log-sum-exp, delta = max_j c min(1, 2 e^{-2|x_j|/c}) over the row's visible keys (a "
         "bound on each capped logit's move, binary64 rounded up), B of the call, B' of the call with the queries "
         "doubled, " +
         attend::any_order_rule();
}

/// The score x_j = scale q_i . k_j of row (b, i, h) and key j in binary64,
/// and |scale| sum_l |q_l k_jl| (the scale of its rounding error).
struct binary64_score {
  double x, a;
};
inline binary64_score score(const attend::problem& P, long b, long i, long h, long j) {
  const long g = attend::kv_head(P, h);
  const double sc = attend::scale_of_double(P);
  double x = 0, a = 0;
  for (long l = 0; l < P.d; ++l) {
    const double t = P.q[P.qi(b, i, h, l)] * P.k[P.ki(b, j, g, l)];
    x += t;
    a += std::fabs(t);
  }
  return {x * sc, a * std::fabs(sc)};
}

/// The cap for P's scores: the power of two c with the smallest |x_j| any
/// row sees within [t, 2t) c (that smallest taken as at least 2^-20); 1 when
/// no row sees a key.
inline double saturating_cap(const attend::problem& P, double t) {
  double smallest = std::numeric_limits<double>::infinity();
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long h = 0; h < P.h_q; ++h)
        for (long j = 0; j < P.n_k; ++j)
          if (attend::visible(P, b, i, j)) smallest = std::min(smallest, std::fabs(score(P, b, i, h, j).x));
  if (smallest == std::numeric_limits<double>::infinity()) return 1;
  return std::ldexp(1.0, std::ilogb(std::max(smallest, 0x1p-20) / t));
}

/// P with every query doubled.
inline attend::problem doubled(const attend::problem& P) {
  attend::problem T = P;
  for (double& x : T.q) x *= 2;
  return T;
}

/// A bound on the move |Delta_j| = c |tanh(2 x_j/c) - tanh(x_j/c)| of every
/// visible key of row (b, i, h) from P to doubled(P), in binary64 rounded up
/// (0 when it sees no key): for t = |x|/c, 0 <= tanh 2t - tanh t
/// < 1 - tanh t = 2/(e^{2t} + 1) < 2 e^{-2t}, so |Delta_j| <= c min(1,
/// 2 e^{-2 x_lo/c}), x_lo a lower bound on |x_j|: the score in binary64 less
/// (d + 8) 2^-53 scale sum_l |q_l k_l|, more than its rounding error.
inline double largest_move(const attend::problem& P, long b, long i, long h) {
  const double c = P.softcap;
  double worst = 0;
  for (long j = 0; j < P.n_k; ++j) {
    if (!attend::visible(P, b, i, j)) continue;
    const auto [x, a] = score(P, b, i, h, j);
    const double lo = std::max(0.0, std::fabs(x) - double(P.d + 8) * 0x1p-53 * 1.01 * a);
    worst = std::max(worst, c * std::min(1.0, 2 * std::exp(-2 * lo / c)));
  }
  return worst * (1 + 0x1p-40);
}

/// The law body: P's call (out, lse) against the call with the queries
/// doubled (outt, lset of T = doubled(P)), row for row: with every logit
/// moved by at most delta (largest_move; a sink does not move), each weight
/// moves by a factor within e^{+-2 delta} and the log-sum-exp by at most
/// delta; so the output within B + B' + (e^{2 delta} - 1) max_j |v_jc| (the
/// weights sum to at most 1, a sink's value is 0), the log-sum-exp within
/// B_lse + B'_lse + delta (rounded up).
inline attend_compare::worst compare(const attend::problem& P, const attend::problem& T,
                                     const std::vector<double>& out, const std::vector<double>& lse,
                                     const std::vector<double>& outt, const std::vector<double>& lset,
                                     const attend::bounds& B, const attend::bounds& Bt) {
  attend::bounds W = Bt;
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long h = 0; h < P.h_q; ++h) {
        const double delta = largest_move(P, b, i, h);
        if (delta == 0) continue;
        const double grow = std::expm1(2 * delta) * (1 + 0x1p-40);
        const long g = attend::kv_head(P, h);
        for (long c = 0; c < P.d_v; ++c) {
          double vmax = 0;
          for (long j = 0; j < P.n_k; ++j)
            if (attend::visible(P, b, i, j)) vmax = std::max(vmax, std::fabs(P.v[P.vi(b, j, g, c)]));
          W.out[T.oi(b, i, h, c)] += hp(grow) * hp(vmax);
        }
        if (!W.lse.empty()) W.lse[T.li(b, h, i)] += hp(delta);
      }
  const auto same_row = [](long b, long i) { return std::pair<long, long>{b, i}; };
  return attend_compare::compare_rows(P, T, same_row, out, lse, outt, lset, B, W);
}

}  // namespace pv::laws::attend_softcap_saturation
