// attend.gqa_repeat, written once: grouped-query attention is the same call
// with each KV head repeated for the query heads that read it,
//   A(q, K, V; h_kv) = A(q, repeat(K), repeat(V); h_q),
// query head h reading KV head floor(h h_kv / h_q) (repeat_kv in Hugging Face
// transformers, repeat_interleave in PyTorch; Ainslie et al. 2023). The KV
// heads of a case are distinct, so a kernel mapping h to h mod h_kv (tile)
// breaks the law whenever 1 < h_kv < h_q.
//
// Exactness class: within a reassociation bound: both outputs are within B
// (problem.h) of the same exact value (the repeated problem has the same
// logits), so |A - A_rep| <= 2 B per entry.
// Judge: the black-box check (blackbox/attend_laws.cpp).
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/problem.h"

#include <string>
#include <vector>

namespace pv::laws::attend_gqa_repeat {

inline constexpr const char* id = "attend.gqa_repeat";

inline std::string statement() {
  return "GQA equals the same call with the K/V heads repeated to h_q (query head h reads KV head floor(h h_kv / h_q))";
}

inline std::string tolerance_rule() {
  return "|A(q, K, V) - A(q, repeat K, repeat V)| <= 2 B per entry, " + attend::any_order_rule();
}

/// The problem with K and V repeated to h_q heads (h_kv = h_q, no GQA).
inline attend::problem repeated(const attend::problem& P) {
  attend::problem R = P;
  R.h_kv = P.h_q;
  R.k.assign(std::size_t(P.batch * P.n_k * P.h_q * P.d), 0.0);
  R.v.assign(std::size_t(P.batch * P.n_k * P.h_q * P.d_v), 0.0);
  for (long b = 0; b < P.batch; ++b)
    for (long j = 0; j < P.n_k; ++j)
      for (long h = 0; h < P.h_q; ++h) {
        const long g = attend::kv_head(P, h);
        for (long l = 0; l < P.d; ++l) R.k[R.ki(b, j, h, l)] = P.k[P.ki(b, j, g, l)];
        for (long c = 0; c < P.d_v; ++c) R.v[R.vi(b, j, h, c)] = P.v[P.vi(b, j, g, c)];
      }
  return R;
}

/// The law body: the GQA output against the repeated one, within 2 B.
inline attend_compare::worst compare(const std::vector<double>& gqa, const std::vector<double>& rep, const attend::bounds& B) {
  attend_compare::worst w;
  for (std::size_t e = 0; e < gqa.size(); ++e) attend_compare::raise(w, e, false, gqa[e], hp(rep[e]), 2 * B.out[e]);
  return w;
}

}  // namespace pv::laws::attend_gqa_repeat
