// attention.convex_hull, written once: the softmax weights of a row are a
// probability vector, so every output row is a convex combination of the
// value rows. With V = I the output row is that probability vector (entries
// >= 0, summing to 1); in general each entry lies between the smallest and
// the largest value of its column.
//
// Tolerance (black box, a kernel summing in any order): each entry is within
// the any-order bound B (any_order_bound.h) of its exact value, which lies in
// the column's range; the row sum with V = I within sum_c B of 1.
// Judge: the black-box check (blackbox/attention_laws.cpp), which draws
// V = I in every other case.
#pragma once

#include "laws/tally.h"
#include "laws/attention/any_order_bound.h"
#include "numerics/matrix.h"

#include <string>

namespace pv::laws::convex_hull {

inline constexpr const char* id = "attention.convex_hull";

inline std::string statement() {
  return "every output row is a convex combination of the value rows: with v = I the "
         "output row is a probability vector, and in general each entry lies between the "
         "smallest and largest value of its column";
}

/// The black-box tolerance rule in words.
inline std::string any_order_tolerance_rule() {
  return "entries >= -B and |sum - 1| <= sum_c B (v = I), or min_j v_jc - B <= out_ic <= "
         "max_j v_jc + B; " + attention_bound::any_order_rule();
}

/// One comparison as a judge's visitor sees it: entry (row, col) against the
/// column's range [lo, hi] (row_sum false; value the entry), or, with V = I,
/// the sum of row `row` against 1 (row_sum true; value the sum, excess
/// |sum - 1|).
struct entry {
  bool row_sum;
  std::size_t row, col;
  const hp& value;
  const hp& lo;
  const hp& hi;
  const hp& excess;  ///< distance outside [lo, hi], or |sum - 1|
  const hp& bound;   ///< B(row, col), or sum_c B(row, c)
};

using outcome = tally;

/// The law body on the output `out` of A(q, k, v) with values V and the
/// any-order bound B of (q, k, v); `simplex`: V = I, so each row must also sum
/// to 1. `visit(entry)` sees the entries of a row in order, then its sum, and
/// returns false to stop.
template <class T, class Visit>
outcome compare_any_order(const matrix<T>& out, const matrix<T>& V, const matrix<hp>& B, bool simplex,
                          Visit&& visit) {
  outcome o;
  for (std::size_t r = 0; r < out.rows; ++r) {
    hp sum = 0, bsum = 0;
    for (std::size_t col = 0; col < out.cols; ++col) {
      const hp x = convert<hp>(out(r, col));
      sum += x;
      bsum += B(r, col);
      hp lo = convert<hp>(V(0, col)), hi = lo;
      for (std::size_t j = 1; j < V.rows; ++j) {
        const hp vj = convert<hp>(V(j, col));
        if (vj < lo) lo = vj;
        if (hi < vj) hi = vj;
      }
      const hp outside = x < lo ? hp(lo - x) : x > hi ? hp(x - hi) : hp(0);
      o.count(outside, B(r, col));
      if (!visit(entry{false, r, col, x, lo, hi, outside, B(r, col)})) return o;
    }
    if (simplex) {
      const hp one = 1, excess = abs(sum - 1);
      o.count(excess, bsum);
      if (!visit(entry{true, r, 0, sum, one, one, excess, bsum})) return o;
    }
  }
  return o;
}

}  // namespace pv::laws::convex_hull
