// attend.lse_merge, written once: attention over keys cut in two at any key
// is the two halves' attentions merged by their log-sum-exp,
//   lse = ln(e^{l_1} + e^{l_2}),  out = e^{l_1 - lse} out_1 + e^{l_2 - lse} out_2,
// the identity split-KV decoding rests on (Milakov and Gimelshein 2018;
// FlashDecoding, Dao et al. 2023): each half is an attend() call of its own,
// its keys renumbered from 0 and its queries' positions shifted by the cut,
// which leaves masks, windows and ALiBi unchanged (they depend on j - p only).
// A half in which a row sees no key has l = -inf and weight 0 (its output,
// the declared convention, does not enter). A kernel's log-sum-exp that is
// not ln Z -- a base-2 one, a denominator without its maximum -- breaks it.
//
// Exactness class: within a reassociation bound: with each half's output
// within B_h and log-sum-exp within d_h of the exact values (problem.h) and
// d = max d_h, the merged log-sum-exp is within d of the exact one
// (ln(e^a + e^b) is 1-Lipschitz in the max norm), each weight within the
// factor e^{+-2d}, so
//   |merged - exact| <= sum_h w_h B_h + (e^{2d} - 1) e^{2d} sum_h w_h (|out_h| + B_h),
// and the whole call adds its own B (and B_lse to the log-sum-exp's d).
// Sinks are not drawn (each half would count the sink once).
// Judge: the black-box check (blackbox/attend_laws.cpp).
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/problem.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

namespace pv::laws::attend_lse_merge {

inline constexpr const char* id = "attend.lse_merge";

inline std::string statement() {
  return "the keys cut in two at any key, the halves' outputs merged by their log-sum-exp (weights e^{l_h - lse}, "
         "lse = ln(e^{l_1} + e^{l_2})) equal the whole call's output and log-sum-exp";
}

inline std::string tolerance_rule() {
  return "|merged - whole| <= sum_h w_h B_h + (e^{2d} - 1) e^{2d} sum_h w_h (|out_h| + B_h) + B per output entry and "
         "d + B_lse per log-sum-exp, d the largest B_lse of the halves, " +
         attend::any_order_rule();
}

/// Keys [from, to) of P as a problem of their own: key j of P is key
/// j - from, each query's position shifts by -from, each item keeps its valid
/// keys in the range (and its explicit bias's columns).
inline attend::problem keys(const attend::problem& P, long from, long to) {
  attend::problem R = P;
  R.n_k = to - from;
  R.k.assign(std::size_t(P.batch * R.n_k * P.h_kv * P.d), 0.0);
  R.v.assign(std::size_t(P.batch * R.n_k * P.h_kv * P.d_v), 0.0);
  for (long b = 0; b < P.batch; ++b) {
    R.q_start[std::size_t(b)] = P.q_start[std::size_t(b)] - from;
    R.k_len[std::size_t(b)] = std::clamp(P.k_len[std::size_t(b)] - from, 0L, R.n_k);
    for (long j = 0; j < R.n_k; ++j)
      for (long g = 0; g < P.h_kv; ++g) {
        for (long l = 0; l < P.d; ++l) R.k[R.ki(b, j, g, l)] = P.k[P.ki(b, j + from, g, l)];
        for (long c = 0; c < P.d_v; ++c) R.v[R.vi(b, j, g, c)] = P.v[P.vi(b, j + from, g, c)];
      }
  }
  attend::carry_bias(P, R, from);  // its columns from .. to - 1
  return R;
}

/// Whether some row is empty in a half of the cut (a kernel declaring no
/// empty-row convention is never sent such a call).
inline bool a_half_has_an_empty_row(const attend::problem& P, long cut) {
  return attend::any_empty_row(keys(P, 0, cut)) || attend::any_empty_row(keys(P, cut, P.n_k));
}

/// One call's computed outputs (dense out[b][i][h][c], lse[b][h][i]) and bounds.
struct side {
  const std::vector<double>& out;
  const std::vector<double>& lse;
  const attend::bounds& B;
};

/// The law body: the halves merged entry by entry against the whole call.
/// `base` reads every log-sum-exp in that base (e: the law; 2: the diagnosis
/// of a kernel returning log2 Z). Rows empty in the whole call compare their
/// log-sum-exp only (their output is the declared convention).
inline attend_compare::worst compare(const attend::problem& P, const side& h1, const side& h2, const side& whole,
                                     double base = std::numbers::e) {
  attend_compare::worst w;
  const double inf = std::numeric_limits<double>::infinity();
  const hp to_ln = base == std::numbers::e ? hp(1) : hp(log(hp(base)));
  for (long b = 0; b < P.batch; ++b)
    for (long h = 0; h < P.h_q; ++h)
      for (long i = 0; i < P.n_q; ++i) {
        const std::size_t li = P.li(b, h, i);
        const double whole_lse = (hp(whole.lse[li]) * to_ln).convert_to<double>();
        const side* s[2] = {&h1, &h2};
        if (std::isnan(h1.lse[li]) || std::isnan(h2.lse[li])) {  // a NaN log-sum-exp merges into NaN
          attend_compare::raise(w, li, true, whole_lse, hp(std::numeric_limits<double>::quiet_NaN()),
                                whole.B.lse[li]);
          continue;
        }
        hp l[2], wt[2] = {hp(0), hp(0)};
        for (int t = 0; t < 2; ++t) l[t] = s[t]->lse[li] == -inf ? hp(-inf) : hp(hp(s[t]->lse[li]) * to_ln);
        if (isinf(l[0]) && isinf(l[1])) {  // empty in both halves: empty in the whole call
          attend_compare::raise(w, li, true, whole_lse, hp(-inf), hp(0));
          continue;
        }
        const hp m = l[0] > l[1] ? l[0] : l[1];
        hp z = 0, d = 0;
        for (int t = 0; t < 2; ++t)
          if (!isinf(l[t])) {
            z += exp(l[t] - m);
            d = std::max(d, hp(s[t]->B.lse[li]));
          }
        const hp lse = m + log(z);
        for (int t = 0; t < 2; ++t)
          if (!isinf(l[t])) wt[t] = exp(l[t] - lse);
        attend_compare::raise(w, li, true, whole_lse, lse, d + whole.B.lse[li]);
        const hp grow = (exp(2 * d) - 1) * exp(2 * d);
        for (long c = 0; c < P.d_v; ++c) {
          const std::size_t e = P.oi(b, i, h, c);
          hp out = 0, bound = whole.B.out[e];
          for (int t = 0; t < 2; ++t) {
            if (wt[t] == 0) continue;
            const hp o = hp(s[t]->out[e]);
            out += wt[t] * o;
            bound += wt[t] * s[t]->B.out[e] + grow * wt[t] * (abs(o) + s[t]->B.out[e]);
          }
          attend_compare::raise(w, e, false, whole.out[e], out, bound);
        }
      }
  return w;
}

}  // namespace pv::laws::attend_lse_merge
