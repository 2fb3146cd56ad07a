// attend.cache, written once: cached equals uncached. Row p of a prefill
// (the square causal call: n_q = n_k queries at positions 0..n_k - 1, no
// cache) equals the decoding step at p -- one query at q_start = p against
// the cache of keys 0..p, the keys after it not yet written -- and a chunk
// of rows p0..p0 + c - 1 equals the chunked-prefill call of those c queries
// at q_start = p0 against keys 0..p0 + c - 1. The window, ALiBi, softcap,
// sinks, heads and batch stay as they are; the cache is each item's first
// keys, its length the call's n_k.
//
// attend.decode_rows compares the last rows of a square call, which see
// every key whatever the mask; this law compares rows in the middle, against
// a cache that ends at them, so that a prefill seeing the keys after its
// rows (the causal mask dropped when n_q > 1: transformers#48748, where
// cached and uncached outputs differed) or a step aligned top-left against
// its cache (SDPA's is_causal with a KV cache attending to key 0 only,
// pytorch#144858) breaks it.
//
// Exactness class: within a reassociation bound: the step's row and the
// prefill's row have the same exact value (the same logits of the same
// keys), each within its own B (problem.h), so |A_step - A_prefill| <=
// B_step + B_prefill per entry, and B_lse_step + B_lse_prefill per
// log-sum-exp.
// Judge: the black-box check (blackbox/attend_laws.cpp).
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/problem.h"

#include <string>
#include <vector>

namespace pv::laws::attend_cache {

inline constexpr const char* id = "attend.cache";

inline std::string statement() {
  return "row p of a causal prefill equals the decoding step at p against the cache of keys 0..p, and a chunk of "
         "rows equals the chunked-prefill call against the keys up to its last row (cached = uncached)";
}

inline std::string tolerance_rule() {
  return "|A_step(i) - A_prefill(p0 + i)| <= B_step + B_prefill per entry (B_lse_step + B_lse_prefill per "
         "log-sum-exp), " + attend::any_order_rule();
}

/// The prefill of P: P's keys, n_q = n_k queries from fill(index) at
/// positions 0..n_k - 1 (q_start 0, causal, every key valid).
template <class Fill>
attend::problem prefill(const attend::problem& P, Fill&& fill) {
  attend::problem F = P;
  F.n_q = P.n_k;
  F.causal = true;
  F.q.assign(std::size_t(F.batch * F.n_q * F.h_q * F.d), 0.0);
  for (std::size_t e = 0; e < F.q.size(); ++e) F.q[e] = fill(e);
  for (auto& s : F.q_start) s = 0;
  for (auto& l : F.k_len) l = F.n_k;
  attend::bias_rows_from(P, F, 0);  // P's rows of the explicit bias in turn, no row left without a key
  attend::keep_own_key(F);
  return F;
}

/// The step of F's rows p0..p0 + c - 1 against the cache of keys
/// 0..p0 + c - 1 (c = 1: a decoding step; c > 1: a prefill chunk).
inline attend::problem step(const attend::problem& F, long p0, long c) {
  attend::problem S = F;
  S.n_q = c;
  S.n_k = p0 + c;
  S.allocate();
  S.causal = true;
  for (long b = 0; b < F.batch; ++b) {
    S.q_start[std::size_t(b)] = p0;
    for (long i = 0; i < c; ++i)
      for (long h = 0; h < F.h_q; ++h)
        for (long l = 0; l < F.d; ++l) S.q[S.qi(b, i, h, l)] = F.q[F.qi(b, p0 + i, h, l)];
    for (long j = 0; j < S.n_k; ++j)
      for (long g = 0; g < F.h_kv; ++g) {
        for (long l = 0; l < F.d; ++l) S.k[S.ki(b, j, g, l)] = F.k[F.ki(b, j, g, l)];
        for (long v = 0; v < F.d_v; ++v) S.v[S.vi(b, j, g, v)] = F.v[F.vi(b, j, g, v)];
      }
  }
  attend::carry_bias(F, S, 0, {}, p0);  // F's rows p0.. of the bias, over the cache's keys
  return S;
}

/// The law body: every entry (and log-sum-exp, when asked for) of the step
/// S at p0 against the matching row of the prefill F.
inline void compare(attend_compare::worst& w, const attend::problem& S, long p0, const attend::problem& F,
                    const std::vector<double>& s_out, const std::vector<double>& s_lse,
                    const std::vector<double>& f_out, const std::vector<double>& f_lse, const attend::bounds& Bs,
                    const attend::bounds& Bf) {
  for (long b = 0; b < S.batch; ++b)
    for (long i = 0; i < S.n_q; ++i)
      for (long h = 0; h < S.h_q; ++h) {
        for (long c = 0; c < S.d_v; ++c) {
          const std::size_t e = S.oi(b, i, h, c), f = F.oi(b, p0 + i, h, c);
          attend_compare::raise(w, e, false, s_out[e], hp(f_out[f]), Bs.out[e] + Bf.out[f]);
        }
        const std::size_t e = S.li(b, h, i), f = F.li(b, h, p0 + i);
        if (S.lse && e < s_lse.size() && f < f_lse.size())
          attend_compare::raise(w, e, true, s_lse[e], hp(f_lse[f]), Bs.lse[e] + Bf.lse[f]);
      }
}

}  // namespace pv::laws::attend_cache
