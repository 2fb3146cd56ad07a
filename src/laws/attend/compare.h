// How the attend.* laws compare one entry (an output value or a
// log-sum-exp): against an exact value or another computed value, within a
// bound, with NaN and infinity taken literally -- a NaN agrees only with a
// NaN (the declared NaN convention of an empty row), -inf only with -inf (the
// log-sum-exp of an empty row) -- and the worst entry of a case kept for the
// finding (its ratio to its bound).
#pragma once

#include "laws/attend/problem.h"
#include "numerics/scalar.h"

#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace pv::laws::attend_compare {

/// The worst entry seen so far: its index, whether it is a log-sum-exp, its
/// difference, bound and ratio (infinite for a NaN or infinity mismatch).
struct worst {
  bool found = false;
  std::size_t index = 0;
  bool lse = false;
  double got = 0, other = 0;  ///< the entry, and the value it is compared with (rounded to double)
  hp diff = 0, bound = 0, ratio = -1;
  bool within() const { return !found || diff <= bound; }
};

inline bool is_nan(const hp& x) { return isnan(x); }

/// Compares `got` with `want` within `bound`, raising w to this entry when its
/// ratio is larger. Exact agreement (bound 0) is required when bound is 0.
inline void raise(worst& w, std::size_t index, bool lse, double got, const hp& want, const hp& bound) {
  const double inf = std::numeric_limits<double>::infinity();
  hp diff = 0, ratio = 0;
  const bool gn = std::isnan(got), wn = is_nan(want);
  if (gn || wn) {
    diff = gn && wn ? hp(0) : hp(inf);
  } else if (std::isinf(got) || isinf(want)) {
    diff = hp(got) == want ? hp(0) : hp(inf);
  } else {
    diff = abs(hp(got) - want);
  }
  if (diff == 0) ratio = 0;
  else ratio = bound > 0 ? hp(diff / bound) : hp(inf);
  if (ratio > w.ratio) {
    w.found = true;
    w.index = index;
    w.lse = lse;
    w.got = got;
    w.other = want.convert_to<double>();
    w.diff = diff;
    w.bound = bound;
    w.ratio = ratio;
  }
}

/// Every non-empty row (b, i) of P's call against row row_of(b, i) = (bq, iq)
/// of Q's call, each head: outputs within B + Bq and, when P asks for it,
/// log-sum-exps within B_lse + Bq_lse, Q's expected to exceed P's by
/// lse_shift (exactly, in hp); the worst entry indexed in Q's call (the laws
/// that compare a call with the same rows called otherwise: permuted,
/// packed, every key twice).
template <class RowOf>
worst compare_rows(const attend::problem& P, const attend::problem& Q, RowOf&& row_of,
                   const std::vector<double>& out, const std::vector<double>& lse, const std::vector<double>& outq,
                   const std::vector<double>& lseq, const attend::bounds& B, const attend::bounds& Bq,
                   const hp& lse_shift = hp(0)) {
  worst w;
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i) {
      if (attend::empty_row(P, b, i)) continue;
      const std::pair<long, long> r = row_of(b, i);
      for (long h = 0; h < P.h_q; ++h) {
        for (long c = 0; c < P.d_v; ++c) {
          const std::size_t e = P.oi(b, i, h, c), eq = Q.oi(r.first, r.second, h, c);
          raise(w, eq, false, outq[eq], hp(out[e]), B.out[e] + Bq.out[eq]);
        }
        if (P.lse && !lse.empty() && !lseq.empty()) {
          const std::size_t e = P.li(b, h, i), eq = Q.li(r.first, h, r.second);
          raise(w, eq, true, lseq[eq], hp(lse[e]) + lse_shift, B.lse[e] + Bq.lse[eq]);
        }
      }
    }
  return w;
}

}  // namespace pv::laws::attend_compare
