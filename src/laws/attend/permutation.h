// attend.permutation, written once: attention is blind to the order of its
// queries and keys once every position-dependent rule travels with them
// (the chapter's order-blindness of self-attention without positions,
// CLAIMS.md, carried to attention as models ship it). The rules that depend
// on positions -- the causal mask at q_start, the window, the padding -- are
// first written as the explicit bias they amount to (-inf on each key a row
// does not see, the problem's own bias kept on the others; the flags off,
// every key valid), then each item's queries and the keys are permuted, the
// bias's rows and columns with them. The rows of that call are the rows of
// the call with the flags, permuted alike:
//   out'[b][pi(i)][h] = out[b][i][h],  lse'[b][h][pi(i)] = lse[b][h][i].
// A kernel whose explicit mask and flags disagree, which reads the bias with
// rows or columns swapped or of the wrong item, or whose result depends on
// where a key sits in memory, breaks it. ALiBi (a bias of j - p per head) is
// not drawn; softcap, sinks, GQA and the scale are.
//
// Exactness class: within a reassociation bound: both calls sum the same
// terms of each row, in orders of their own, each within its bound of the
// same exact row (problem.h), so |out' - out| <= B + B' per entry (B of the
// call with the flags, B' of the permuted call with its bias) and likewise
// B_lse + B'_lse. Rows that see no key hold the declared convention and are
// left to attend.reference (the mean of V counts the padded keys only when
// they are valid).
// Judge: the black-box check (blackbox/attend_laws.cpp), which names the
// call that is off its exact value and, with attend.reference's variants,
// the class.
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/problem.h"

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace pv::laws::attend_permutation {

inline constexpr const char* id = "attend.permutation";

inline std::string statement() {
  return "with the causal mask, window and padding written as the explicit bias they mean, permuting each item's "
         "queries and the keys (the bias's rows and columns with them) permutes the output rows alike";
}

inline std::string tolerance_rule() {
  return "|out'[pi(i)] - out[i]| <= B + B' per output entry and B_lse + B'_lse per log-sum-exp, B of the call with "
         "the flags, B' of the permuted call with the bias, " +
         attend::any_order_rule();
}

/// P with its causal mask, window and padding written as the bias they
/// mean: -inf on each key a row does not see, P's own bias (or 0) on the
/// others; one bias per item, the flags off, every key valid.
inline attend::problem as_bias(const attend::problem& P) {
  attend::problem R = P;
  R.causal = false;
  R.left = R.right = -1;
  R.k_len.assign(std::size_t(P.batch), P.n_k);
  R.bias_batch = P.batch;
  R.bias.assign(std::size_t(P.batch * P.n_q * P.n_k), 0.0);
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long j = 0; j < P.n_k; ++j)
        R.bias[R.bi(b, i, j)] = !attend::visible(P, b, i, j) ? -std::numeric_limits<double>::infinity()
                                : P.bias.empty()              ? 0.0
                                                              : P.bias[P.bi(b, i, j)];
  return R;
}

/// R with each item's query i moved to pi[i] and key j to sigma[j] (q, k, v
/// and the bias's rows and columns; R has one bias per item).
inline attend::problem permuted(const attend::problem& R, const std::vector<long>& pi, const std::vector<long>& sigma) {
  attend::problem S = R;
  for (long b = 0; b < R.batch; ++b) {
    for (long i = 0; i < R.n_q; ++i) {
      const long ip = pi[std::size_t(i)];
      for (long h = 0; h < R.h_q; ++h)
        for (long l = 0; l < R.d; ++l) S.q[S.qi(b, ip, h, l)] = R.q[R.qi(b, i, h, l)];
      for (long j = 0; j < R.n_k; ++j) S.bias[S.bi(b, ip, sigma[std::size_t(j)])] = R.bias[R.bi(b, i, j)];
    }
    for (long j = 0; j < R.n_k; ++j) {
      const long jp = sigma[std::size_t(j)];
      for (long g = 0; g < R.h_kv; ++g) {
        for (long l = 0; l < R.d; ++l) S.k[S.ki(b, jp, g, l)] = R.k[R.ki(b, j, g, l)];
        for (long c = 0; c < R.d_v; ++c) S.v[S.vi(b, jp, g, c)] = R.v[R.vi(b, j, g, c)];
      }
    }
  }
  return S;
}

/// R (its masks already written as its bias: as_bias) over n keys: key j is
/// R's key from(j) (its k, its v and its column of the bias), or, where
/// from(j) is negative, a key with k = 0, v = 0 and the bias `fill` on every
/// row; every key valid. The twins that add keys (self_merge.h: each key
/// twice; sink_as_key.h: the sink as a key) are built with it.
template <class From>
attend::problem rekeyed(const attend::problem& R, long n, From from, double fill) {
  attend::problem T = R;
  T.n_k = n;
  T.k.assign(std::size_t(R.batch * n * R.h_kv * R.d), 0.0);
  T.v.assign(std::size_t(R.batch * n * R.h_kv * R.d_v), 0.0);
  T.k_len.assign(std::size_t(R.batch), n);
  T.bias.assign(std::size_t(T.bias_batch * T.n_q * n), 0.0);
  for (long b = 0; b < R.batch; ++b)
    for (long j = 0; j < n; ++j) {
      const long o = from(j);
      for (long i = 0; i < R.n_q; ++i) T.bias[T.bi(b, i, j)] = o < 0 ? fill : R.bias[R.bi(b, i, o)];
      if (o < 0) continue;
      for (long g = 0; g < R.h_kv; ++g) {
        for (long l = 0; l < R.d; ++l) T.k[T.ki(b, j, g, l)] = R.k[R.ki(b, o, g, l)];
        for (long c = 0; c < R.d_v; ++c) T.v[T.vi(b, j, g, c)] = R.v[R.vi(b, o, g, c)];
      }
    }
  return T;
}

/// The law body: the call with the flags (out, lse of P) against the
/// permuted call (outp, lsep), row i against row pi[i], within B + B'
/// (Bp indexed like the permuted call); rows of P that see no key skipped.
inline attend_compare::worst compare(const attend::problem& P, const std::vector<long>& pi,
                                     const std::vector<double>& out, const std::vector<double>& lse,
                                     const std::vector<double>& outp, const std::vector<double>& lsep,
                                     const attend::bounds& B, const attend::bounds& Bp) {
  const auto row_of = [&](long b, long i) { return std::pair<long, long>{b, pi[std::size_t(i)]}; };
  return attend_compare::compare_rows(P, P, row_of, out, lse, outp, lsep, B, Bp);
}

}  // namespace pv::laws::attend_permutation
