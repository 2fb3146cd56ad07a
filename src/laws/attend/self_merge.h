// attend.self_merge, written once: a call merged with itself. Merging two
// calls by their log-sum-exp (attend.lse_merge) gives, for a call merged
// with a copy of itself, lse + ln 2 and the same output; as one call, that is
// every key given twice:
//   Z' = sum_j 2 e^{s_j} = 2 Z,  out' = sum_j 2 e^{s_j} v_j / Z' = out,
// so the call over the keys and values concatenated with themselves must
// return each row's output unchanged and its log-sum-exp plus ln 2. Key j
// and its copy j + n_k sit at different positions, so the causal mask,
// window and padding are first written as the explicit bias they mean
// (attend_permutation::as_bias), whose columns are repeated with the keys;
// ALiBi (a bias per head) and sinks (counted once, not twice) are not drawn.
// A kernel whose log-sum-exp is not ln Z (a base-2 one: + 1, not + ln 2),
// that reads the bias's columns otherwise than its keys, or whose masks
// disagree with the bias they mean, breaks it.
//
// Exactness class: within a reassociation bound: both calls sum the same
// terms (each twice in the second), in orders of their own, each within its
// bound of the exact row (problem.h; ln 2 is added exactly, in MPFR):
// |out' - out| <= B + B' per entry, |lse' - (lse + ln 2)| <= B_lse + B'_lse.
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

namespace pv::laws::attend_self_merge {

inline constexpr const char* id = "attend.self_merge";

inline std::string statement() {
  return "every key given twice (the keys, values and the bias the masks mean concatenated with themselves: a call "
         "merged with itself) leaves each row's output unchanged and adds ln 2 to its log-sum-exp";
}

inline std::string tolerance_rule() {
  return "|out' - out| <= B + B' per output entry and |lse' - (lse + ln 2)| <= B_lse + B'_lse per log-sum-exp, B "
         "of the call, B' of the call with every key twice, " +
         attend::any_order_rule();
}

/// P with every key given twice: P's masks written as the explicit bias
/// (as_bias), then keys, values and the bias's columns j and n_k + j alike.
inline attend::problem twice(const attend::problem& P) {
  const attend::problem R = attend_permutation::as_bias(P);
  const long n = R.n_k;
  return attend_permutation::rekeyed(R, 2 * n, [n](long j) { return j % n; }, 0.0);
}

/// The law body: P's call (out, lse) against the call with every key twice
/// (outt, lset of T = twice(P)), row for row, its log-sum-exp less ln 2;
/// rows of P that see no key skipped.
inline attend_compare::worst compare(const attend::problem& P, const attend::problem& T,
                                     const std::vector<double>& out, const std::vector<double>& lse,
                                     const std::vector<double>& outt, const std::vector<double>& lset,
                                     const attend::bounds& B, const attend::bounds& Bt) {
  const auto same_row = [](long b, long i) { return std::pair<long, long>{b, i}; };
  return attend_compare::compare_rows(P, T, same_row, out, lse, outt, lset, B, Bt, log(hp(2)));
}

}  // namespace pv::laws::attend_self_merge
