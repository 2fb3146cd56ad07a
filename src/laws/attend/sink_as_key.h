// attend.sink_as_key, written once: the closed form of an attention sink. A
// sink logit sigma (gpt-oss) adds e^sigma to a row's softmax denominator and
// nothing to its numerator:
//   Z = e^sigma + sum_j e^{s_j},  out = sum_j e^{s_j} v_j / Z,  lse = ln Z,
// which is what one more key gives whose logit is sigma and whose value is 0.
// So the call with the sink must equal the call without it over the keys and
// one key more: k = 0 (its score 0, capped to 0 by a softcap), v = 0, and an
// explicit bias sigma on its column, visible to every row. The causal mask,
// window and padding are first written as the explicit bias they mean
// (attend_permutation::as_bias), so that the extra key is masked for no row;
// ALiBi (a bias per head, which would add slope (n_k - p) to the extra key)
// is not drawn. The explicit bias has no head dimension, so this law's cases
// give every head the same sink (attend.reference draws one per head).
// A kernel that drops the sinks, adds the sink to a numerator, caps the sink
// or scales it, or whose rows that see only the sink are not 0 with
// log-sum-exp sigma, breaks it, whatever its masking convention.
//
// Exactness class: within a reassociation bound: both calls sum the same
// terms (the sink as a term of the denominator, or as a key of value 0), in
// orders of their own, each within its bound of the exact row (problem.h):
// |out' - out| <= B + B' per entry, |lse' - lse| <= B_lse + B'_lse.
// Judge: the black-box check (blackbox/attend_laws.cpp), which names the
// call that is off its exact value and, with attend.reference's variants,
// the class.
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/permutation.h"
#include "laws/attend/problem.h"

#include <string>
#include <utility>
#include <vector>

namespace pv::laws::attend_sink_as_key {

inline constexpr const char* id = "attend.sink_as_key";

inline std::string statement() {
  return "a sink logit gives what one key more gives whose value is 0 and whose logit is the sink (k = 0, an "
         "explicit bias equal to the sink, the masks written as the bias they mean): each row's output and "
         "log-sum-exp unchanged";
}

inline std::string tolerance_rule() {
  return "|out' - out| <= B + B' per output entry and |lse' - lse| <= B_lse + B'_lse per log-sum-exp, B of the "
         "call with the sink, B' of the call with the sink as a key, " +
         attend::any_order_rule();
}

/// P (one sink shared by every head) with its sink as a key: P's masks
/// written as the explicit bias (as_bias), then key n_k with k = 0, v = 0
/// and the bias P.sink[0] on every row of every item; no sink.
inline attend::problem sink_as_key(const attend::problem& P) {
  const attend::problem R = attend_permutation::as_bias(P);
  const long n = R.n_k;
  attend::problem T = attend_permutation::rekeyed(
      R, n + 1, [n](long j) { return j < n ? j : -1L; }, P.sink.empty() ? 0.0 : P.sink[0]);
  T.sink.clear();
  return T;
}

/// The law body: P's call (out, lse) against the call with the sink as a
/// key (outk, lsek of T = sink_as_key(P)), row for row.
inline attend_compare::worst compare(const attend::problem& P, const attend::problem& T,
                                     const std::vector<double>& out, const std::vector<double>& lse,
                                     const std::vector<double>& outk, const std::vector<double>& lsek,
                                     const attend::bounds& B, const attend::bounds& Bk) {
  const auto same_row = [](long b, long i) { return std::pair<long, long>{b, i}; };
  return attend_compare::compare_rows(P, T, same_row, out, lse, outk, lsek, B, Bk);
}

}  // namespace pv::laws::attend_sink_as_key
