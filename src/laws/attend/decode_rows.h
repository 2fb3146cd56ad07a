// attend.decode_rows, written once: decoding is the matching rows of full
// causal attention. A call of n_q queries at positions n_k - n_q .. n_k - 1
// (a decode step against a cache of n_k - 1 keys when n_q = 1, a multi-query
// verify step or a prefill chunk when n_q > 1; q_start = n_k - n_q) gives
// rows n_k - n_q .. n_k - 1 of the square causal call over all n_k queries
// (q_start = 0), whatever the window and other fields. In the square call top-left and
// bottom-right coincide, so the law fixes the alignment from first
// principles, without taking any library's convention on trust.
//
// Exactness class: within a reassociation bound: row r of the decode call
// and row n_k - n_q + r of the square call have the same exact value, each
// within its own B (problem.h), so |A_dec - A_full| <= B_dec + B_full.
// Judge: the black-box check (blackbox/attend_laws.cpp).
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/problem.h"

#include <string>
#include <vector>

namespace pv::laws::attend_decode_rows {

inline constexpr const char* id = "attend.decode_rows";

inline std::string statement() {
  return "decoding n_q queries at the end of n_k keys (q_start = n_k - n_q) gives the last n_q rows of the "
         "square causal call";
}

inline std::string tolerance_rule() {
  return "|A_dec(r) - A_full(n_k - n_q + r)| <= B_dec + B_full per entry, " + attend::any_order_rule();
}

/// The square causal problem of a decode problem D (same keys; queries at
/// 0..n_k - 1, the last n_q of them D's queries, the others `early`).
template <class Early>
attend::problem square(const attend::problem& D, Early&& early) {
  attend::problem F = D;
  F.n_q = D.n_k;
  F.q.assign(std::size_t(D.batch * F.n_q * D.h_q * D.d), 0.0);
  for (long b = 0; b < D.batch; ++b) {
    F.q_start[std::size_t(b)] = 0;
    for (long i = 0; i < F.n_q; ++i)
      for (long h = 0; h < D.h_q; ++h)
        for (long l = 0; l < D.d; ++l) {
          const long r = i - (D.n_k - D.n_q);
          F.q[F.qi(b, i, h, l)] = r >= 0 ? D.q[D.qi(b, r, h, l)] : early(F.qi(b, i, h, l));
        }
  }
  attend::bias_rows_from(D, F, D.n_k - D.n_q);  // its last rows D's bias, the others D's rows again
  attend::keep_own_key(F);
  return F;
}

/// The law body: every entry of the decode output against the matching row
/// of the square one.
inline attend_compare::worst compare(const attend::problem& D, const attend::problem& F, const std::vector<double>& dec,
                             const std::vector<double>& full, const attend::bounds& Bd, const attend::bounds& Bf) {
  attend_compare::worst w;
  for (long b = 0; b < D.batch; ++b)
    for (long i = 0; i < D.n_q; ++i)
      for (long h = 0; h < D.h_q; ++h)
        for (long c = 0; c < D.d_v; ++c) {
          const std::size_t e = D.oi(b, i, h, c), f = F.oi(b, i + D.n_k - D.n_q, h, c);
          attend_compare::raise(w, e, false, dec[e], hp(full[f]), Bd.out[e] + Bf.out[f]);
        }
  return w;
}

}  // namespace pv::laws::attend_decode_rows
