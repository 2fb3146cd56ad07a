// Exhaustive permutation checks (issue 4): every order of a small token set,
// in the high-precision reference (within the reorder bound) and in IEEE
// types (bit for bit, or measured in ulps).
#pragma once

#include "claims/inputs.h"  // six_cell_input
#include "laws/permutation_equivariance.h"
#include "posverify/error_bounds.h"
#include "posverify/json.h"
#include "posverify/permutation.h"

#include <algorithm>
#include <cstdint>
#include <cstring>  // std::memcmp
#include <string>
#include <vector>

namespace pv::proofs {

/// The six-cell input, shared with the claim perm.six-cells (claims/inputs.h).
using claims::six_cell_input;

/// Problem 5's tokens a = (1, 0), b = (0, 1), c = (1, 1).
matrix<double> p5_tokens();

/// Every permutation of 0..n-1 in lexicographic order (n! of them).
std::vector<permutation> all_permutations(std::size_t n);

/// Distance in units in the last place between two IEEE numbers of the same
/// type: the number of representable values between them (+0 and -0 are 0
/// apart; `same_bits` tells them apart).
std::int64_t ulp_distance(double a, double b);
std::int64_t ulp_distance(float a, float b);

/// Bit-for-bit equality of two IEEE numbers.
template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

/// The outcome of checking attention(P X) = P attention(X) over all orders.
struct order_sweep {
  std::size_t orders = 0;
  hp max_abs_diff = 0;         ///< over all orders and entries
  hp max_ratio_to_bound = 0;   ///< max |diff| / reorder bound (hp: 0 when diff = 0)
  bool within_bound = true;    ///< every entry within attention_reorder_bound
  bool bitwise_equal = true;   ///< every entry with identical bits (IEEE)
  std::int64_t max_ulps = 0;   ///< largest ulp distance (IEEE)
  permutation worst;           ///< an order attaining max_abs_diff
};

/// Checks attention(P X) against P attention(X) (self-attention, identity
/// projections) for every permutation P of the rows of X, computed in T with
/// options `o`.
template <class T>
order_sweep sweep_orders(const matrix<double>& X0, const attention_options<T>& o) {
  namespace law = laws::permutation_equivariance;
  order_sweep s;
  const auto X = convert_matrix<T>(X0);
  const auto base = attention(X, X, X, o);
  for (const auto& perm : all_permutations(X.rows)) {
    const auto PX = permute_rows(X, perm);
    const auto out = attention(PX, PX, PX, o);
    const auto B = attention_reorder_bound(PX, PX, PX, o);
    const auto r = law::compare(
        base, out, perm, [&](std::size_t i, std::size_t c) { return B(i, c); },
        [&](const law::entry<T>& e) {
          if constexpr (is_ieee_v<T>) s.max_ulps = std::max(s.max_ulps, ulp_distance(e.permuted, e.original));
          return true;
        });
    if (r.max_abs_diff > s.max_abs_diff || s.worst.empty()) {
      if (r.max_abs_diff > s.max_abs_diff) s.max_abs_diff = r.max_abs_diff;
      s.worst = perm;
    }
    if (r.max_ratio > s.max_ratio_to_bound) s.max_ratio_to_bound = r.max_ratio;
    s.within_bound = s.within_bound && r.within;
    s.bitwise_equal = s.bitwise_equal && r.bitwise_equal;
    ++s.orders;
  }
  return s;
}

/// JSON record of a sweep: orders, max_abs_diff, max_ulps, bitwise_equal, ...
json to_json(const order_sweep& s, bool ieee);

}  // namespace pv::proofs
