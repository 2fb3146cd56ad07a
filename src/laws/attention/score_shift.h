// attention.score_shift, written once: the softmax is shift invariant,
// softmax(s + c) = softmax(s), so adding a constant to all scores of a row
// changes nothing. The case: with q' = [q | a_i] and k' = [k | 1] every score
// of row i moves by a_i / sqrt(d + 1), so A(q', k', v) = A([q | 0], k', v);
// shifts of 2000 sqrt(d + 1) make exp overflow unless the kernel subtracts
// the row maximum first (Milakov and Gimelshein 2018, "Online normalizer
// calculation for softmax").
//
// Tolerance (black box, a kernel summing in any order): each of the two calls
// is within its own any-order bound B (any_order_bound.h) of the same exact
// value, so they agree within B(q', k', v) + B([q|0], k', v).
// Judge: the black-box check (blackbox/attention_laws.cpp), which draws q, k
// and the shifts.
#pragma once

#include "laws/tally.h"
#include "laws/attention/any_order_bound.h"
#include "numerics/matrix.h"

#include <string>
#include <vector>

namespace pv::laws::score_shift {

inline constexpr const char* id = "attention.score_shift";

inline std::string statement() {
  return "adding a constant to all scores of a row changes nothing (the softmax is "
         "shift invariant): with q' = [q | a_i] and k' = [k | 1] every score of row i moves "
         "by a_i / sqrt(d + 1), so A(q', k', v) = A([q | 0], k', v); a_i reaches 2000 "
         "sqrt(d + 1), where exp overflows without the max-subtraction";
}

/// The black-box tolerance rule in words.
inline std::string any_order_tolerance_rule() {
  return "|A(q', k', v) - A([q|0], k', v)| <= B(q', k', v) + B([q|0], k', v), " +
         attention_bound::any_order_rule();
}

/// The inputs of one case: q' = [q | a], q0 = [q | 0], k' = [k | 1].
template <class T>
struct shifted {
  matrix<T> q1, q0, k1;
};

/// Builds the case from q, k and the shift a[r] of every query row (rounded
/// to T).
template <class T>
shifted<T> shift_scores(const matrix<T>& q, const matrix<T>& k, const std::vector<double>& a) {
  const std::size_t d = q.cols;
  shifted<T> s;
  s.q1 = matrix<T>(q.rows, d + 1);
  s.q0 = s.q1;
  s.k1 = matrix<T>(k.rows, d + 1);
  for (std::size_t r = 0; r < q.rows; ++r) {
    for (std::size_t l = 0; l < d; ++l) s.q1(r, l) = s.q0(r, l) = q(r, l);
    s.q1(r, d) = static_cast<T>(a[r]);
  }
  for (std::size_t r = 0; r < k.rows; ++r) {
    for (std::size_t l = 0; l < d; ++l) s.k1(r, l) = k(r, l);
    s.k1(r, d) = T(1);
  }
  return s;
}

/// One compared entry: (row, col) of A(q', k', v) (`shifted_out`) and of
/// A([q|0], k', v) (`unshifted_out`).
template <class T>
struct entry {
  std::size_t row, col;
  const T& shifted_out;
  const T& unshifted_out;
  const hp& diff;
  const hp& bound;
};

using outcome = tally;

/// The law body on the two outputs and their any-order bounds B1 (of q', k',
/// v) and B0 (of [q|0], k', v); `visit(entry)` sees the entries in row-major
/// order and returns false to stop.
template <class T, class Visit>
outcome compare_any_order(const matrix<T>& out1, const matrix<T>& out0, const matrix<hp>& B1,
                          const matrix<hp>& B0, Visit&& visit) {
  outcome o;
  for (std::size_t r = 0; r < out1.rows; ++r)
    for (std::size_t c = 0; c < out1.cols; ++c) {
      const hp diff = abs(convert<hp>(out1(r, c)) - convert<hp>(out0(r, c)));
      const hp bound = B1(r, c) + B0(r, c);
      o.count(diff, bound);
      if (!visit(entry<T>{r, c, out1(r, c), out0(r, c), diff, bound})) return o;
    }
  return o;
}

}  // namespace pv::laws::score_shift
