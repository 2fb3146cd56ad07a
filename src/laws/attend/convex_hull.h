// attend.convex_hull, written once: a non-empty row's output is a convex
// combination of the values its query sees,
//   out_c = sum_j p_j v_jc, p_j >= 0, sum_j p_j = 1 (or <= 1 with a sink, whose
//   value is 0),
// so min_j v_jc <= out_c <= max_j v_jc (0 joins both ends with a sink), and it
// is finite, with the values near the largest the storage format holds.
// There an accumulator kept in a narrower format than the arithmetic the dtype
// promises overflows: the unnormalised sum sum_j e^{s_j - m} v_jc of a
// float16 V.P accumulator passes 65504 while the output is a few times 10^4
// (llama.cpp PR 13975 and 17746). The magnitude is M = min(F / 2,
// A / (4 (n_k + 1))), F the storage format's largest value and A the
// arithmetic's: a kernel summing in its arithmetic cannot overflow
// (n_k M < A / 4), an accumulator in the storage format can: the values of a
// column share a sign and lie in [M / 2, M], and the queries are small, so k
// keys of nearly equal weight sum to about k F / 4, past F from k = 5.
//
// Exactness class: within a reassociation bound: out_c within B (problem.h)
// of its exact value, which lies in the hull, so outside the hull by at most
// B; NaN and infinity never within. Empty rows hold the declared convention
// and are left out.
// Judge: the black-box check (blackbox/attend_laws.cpp).
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/problem.h"

#include <cmath>
#include <string>
#include <vector>

namespace pv::laws::attend_convex_hull {

inline constexpr const char* id = "attend.convex_hull";

inline std::string statement() {
  return "every output of a row that sees a key lies between the smallest and the largest value it sees (0 with a "
         "sink) and is finite, the values near the largest the storage format holds";
}

inline std::string tolerance_rule() {
  return "outside [min_j v_jc, max_j v_jc] by at most B per entry, NaN and infinity never within, values of "
         "magnitude up to M = min(F / 2, A / (4 (n_k + 1))) (F: the storage format's largest value, A: the "
         "arithmetic's), " +
         attend::any_order_rule();
}

/// The magnitude M of the values (file comment): `stored_max` the largest
/// value of the format V is stored in, `arith_max` of the arithmetic.
inline double magnitude(const attend::problem& P, double stored_max, double arith_max) {
  return std::fmin(stored_max / 2, arith_max / (4.0 * double(P.n_k + 1)));
}

/// The law body: the worst distance outside the hull against B (its `other`
/// the nearer end of the hull). `over` gets, for the worst entry, the
/// largest unnormalised sum sum_j e^{s_j - m} |v_jc| of its row and column
/// (what a streamed accumulator holds before the division): the only exact
/// arithmetic here, one row's, for the diagnosis.
inline attend_compare::worst compare(const attend::problem& P, const std::vector<double>& out,
                                     const attend::bounds& B, hp* over = nullptr) {
  attend_compare::worst w;
  const bool sinks = !P.sink.empty();
  long wb = -1, wh = 0, wi = 0, wc = 0;  // the worst entry's row and column
  std::vector<long> keys;
  for (long b = 0; b < P.batch; ++b)
    for (long h = 0; h < P.h_q; ++h) {
      const long g = attend::kv_head(P, h);
      for (long i = 0; i < P.n_q; ++i) {
        keys.clear();
        for (long j = 0; j < P.n_k; ++j)
          if (attend::visible(P, b, i, j)) keys.push_back(j);
        if (keys.empty()) continue;  // empty, or only the sink: the convention, or exactly 0
        for (long c = 0; c < P.d_v; ++c) {
          double lo = sinks ? 0.0 : P.v[P.vi(b, keys[0], g, c)], hi = lo;
          for (long j : keys) {
            const double v = P.v[P.vi(b, j, g, c)];
            lo = std::fmin(lo, v);
            hi = std::fmax(hi, v);
          }
          const std::size_t e = P.oi(b, i, h, c);
          const double o = out[e];
          const double nearer = std::isfinite(o) && o < lo ? lo : std::isfinite(o) && o > hi ? hi : o;
          const hp before = w.ratio;
          attend_compare::raise(w, e, false, o, hp(std::isfinite(o) ? nearer : lo), B.out[e]);
          if (w.ratio != before) wb = b, wh = h, wi = i, wc = c;
        }
      }
    }
  if (over) {
    *over = 0;
    if (wb >= 0) {
      attend::row_work W(P, {});
      attend::logits(P, wb, wi, wh, {}, W);
      if (!P.sink.empty()) W.sink = hp(P.sink[std::size_t(wh)]);
      attend::softmax_terms(W, sinks);
      const long g = attend::kv_head(P, wh);
      for (std::size_t t = 0; t < W.r.keys.size(); ++t) *over += W.e[t] * abs(hp(P.v[P.vi(wb, W.r.keys[t], g, wc)]));
    }
  }
  return w;
}

}  // namespace pv::laws::attend_convex_hull
