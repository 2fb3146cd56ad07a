// attend.packing, written once: a packed batch equals its items called
// apart. Variable-length batches are packed end to end -- one sequence
// holding every item's queries and valid keys, a block-diagonal mask keeping
// each item to its own keys (document masking; the cu_seqlens of
// FlashAttention's varlen call, FlexAttention's document mask) -- and each
// row of the packed call must be the row of its item in the batched call:
//   packed[off_q(b) + i][h] = batched[b][i][h],
// off_q(b) = b n_q. The items' causal mask, window and padding become the
// packed call's bias (-inf on each key a row does not see, the item's own
// bias on the others, -inf on every key of another item), the flags off;
// only each item's valid keys are packed (key j < k_len[b] of item b at
// off_k(b) + j, off_k(b) = k_len[0] + ... + k_len[b-1]). A kernel whose mask
// lets a row see another item's keys (cross-document attention in packed
// training), or that reads the bias of the wrong block, breaks it. ALiBi
// (positions within an item) is not drawn.
//
// Exactness class: within a reassociation bound: the packed row sums the
// same terms as the item's row (the other items' keys have weight exactly 0),
// in an order of its own, each within its bound of the same exact row
// (problem.h): |packed - batched| <= B + B' per entry, B_lse + B'_lse per
// log-sum-exp.
// Judge: the black-box check (blackbox/attend_laws.cpp), which names the
// call that is off its exact value and, with attend.reference's variants,
// the class.
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/permutation.h"
#include "laws/attend/problem.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace pv::laws::attend_packing {

inline constexpr const char* id = "attend.packing";

inline std::string statement() {
  return "the items packed end to end in one sequence, each kept to its own valid keys by a block-diagonal bias "
         "(with its causal mask, window and own bias) or told as packed items (cu_seqlens), give each item's rows of "
         "the batched call";
}

inline std::string tolerance_rule() {
  return "|packed - batched| <= B + B' per output entry and B_lse + B'_lse per log-sum-exp, B of the batched call, "
         "B' of the packed one, " +
         attend::any_order_rule();
}

/// Where item b's key j sits in the packed call: the valid keys of the items
/// before it, then j.
inline long key_offset(const attend::problem& P, long b) {
  long o = 0;
  for (long a = 0; a < b; ++a) o += P.k_len[std::size_t(a)];
  return o;
}

/// P's items packed into one: queries b n_q + i, valid keys key_offset(b) + j,
/// the bias block-diagonal (attend_permutation::as_bias within an item, -inf
/// across), the flags off, one item.
inline attend::problem packed(const attend::problem& P) {
  const attend::problem R = attend_permutation::as_bias(P);
  attend::problem Q;
  Q.batch = 1;
  Q.h_q = P.h_q;
  Q.h_kv = P.h_kv;
  Q.n_q = P.batch * P.n_q;
  Q.n_k = key_offset(P, P.batch);
  Q.d = P.d;
  Q.d_v = P.d_v;
  Q.allocate();
  Q.scale = P.scale;
  Q.softcap = P.softcap;
  Q.sink = P.sink;
  Q.lse = P.lse;
  Q.bias_batch = 1;
  Q.bias.assign(std::size_t(Q.n_q * Q.n_k), -std::numeric_limits<double>::infinity());
  for (long b = 0; b < P.batch; ++b) {
    const long ok = key_offset(P, b), n = P.k_len[std::size_t(b)];
    for (long i = 0; i < P.n_q; ++i) {
      const long ip = b * P.n_q + i;
      for (long h = 0; h < P.h_q; ++h)
        for (long l = 0; l < P.d; ++l) Q.q[Q.qi(0, ip, h, l)] = P.q[P.qi(b, i, h, l)];
      for (long j = 0; j < n; ++j) Q.bias[Q.bi(0, ip, ok + j)] = R.bias[R.bi(b, i, j)];
    }
    for (long j = 0; j < n; ++j)
      for (long g = 0; g < P.h_kv; ++g) {
        for (long l = 0; l < P.d; ++l) Q.k[Q.ki(0, ok + j, g, l)] = P.k[P.ki(b, j, g, l)];
        for (long c = 0; c < P.d_v; ++c) Q.v[Q.vi(0, ok + j, g, c)] = P.v[P.vi(b, j, g, c)];
      }
  }
  return Q;
}

/// The packed items of P as a kernel's varlen call takes them
/// (PV_ATTEND_VARLEN): item b's queries at b n_q, its valid keys at
/// key_offset(b), its own positions and k_len, P's flags. For a P without an
/// explicit bias or ALiBi, whose rows the packed problem's bias says alone.
inline attend::varlen_items items(const attend::problem& P) {
  attend::varlen_items V;
  for (long b = 0; b <= P.batch; ++b) {
    V.cu_q.push_back(b * P.n_q);
    V.cu_k.push_back(key_offset(P, b));
  }
  V.q_start = P.q_start;
  V.k_len = P.k_len;
  V.causal = P.causal;
  V.left = P.left;
  V.right = P.right;
  return V;
}

/// packed(P) told as its items (the varlen call).
inline attend::problem packed_items(const attend::problem& P) {
  attend::problem Q = packed(P);
  Q.varlen = items(P);
  return Q;
}

/// The wrong reading of a varlen call whose keys are cut with the queries'
/// offsets (cu_seqlens_k taken to be cu_seqlens_q, right only when every
/// item has as many queries as keys: vllm-project/vllm-omni PR 3525): item
/// b's row sees the packed keys b n_q .. b n_q + n_q - 1 (those that exist),
/// key b n_q + j weighted as its own key j would be. As a problem of Q's
/// shape (packed(P)'s keys, a bias of its own).
inline attend::problem keys_from_query_offsets(const attend::problem& P) {
  const attend::problem R = attend_permutation::as_bias(P);
  attend::problem W = packed(P);
  std::fill(W.bias.begin(), W.bias.end(), -std::numeric_limits<double>::infinity());
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long j = 0; j < P.n_q && j < P.n_k && b * P.n_q + j < W.n_k; ++j)
        W.bias[W.bi(0, b * P.n_q + i, b * P.n_q + j)] = R.bias[R.bi(b, i, j)];
  W.lse = false;
  return W;
}

/// The law body: the batched call (out, lse of P) against the packed one
/// (outp, lsep of Q = packed(P)), row (b, i) against row b n_q + i, within
/// B + B' (Bq indexed like the packed call); rows of P that see no key
/// skipped.
inline attend_compare::worst compare(const attend::problem& P, const attend::problem& Q,
                                     const std::vector<double>& out, const std::vector<double>& lse,
                                     const std::vector<double>& outp, const std::vector<double>& lsep,
                                     const attend::bounds& B, const attend::bounds& Bq) {
  const auto row_of = [&](long b, long i) { return std::pair<long, long>{0, b * P.n_q + i}; };
  return attend_compare::compare_rows(P, Q, row_of, out, lse, outp, lsep, B, Bq);
}

}  // namespace pv::laws::attend_packing
