// Exhaustive proofs on small domains: a law checked at every point of a
// finite domain, so "for all" is literally true there.
//
// All orders ("Opening: attention does not know order", Problem 5): every
//    permutation P of a small token set, attention(P X) = P attention(X) in
//    the high-precision reference (within the reorder bound) and in IEEE
//    types (bit for bit, or measured in ulps).
// The 30-degree example ("Worked example: rotated positions keep only the
//    difference"): in Q(sqrt 3), with cos 30 = sqrt3/2 and sin 30 = 1/2,
//      <R((m+s) 30) q, R((n+s) 30) k> = <R(m 30) q, R(n 30) k>
//    for every m, n, s in a box, and the dot depends only on (m - n) mod 12.
// One speed (Problem 4: two friends on a carousel): with w = 2 pi p/q,
//    R(d1 w) = R(d2 w) <=> d1 = d2 (mod q), with angles as exact fractions
//    of a turn, over one period and beyond.
//
// exhaustive.cpp attaches them to perm.six-cells and p5.no-encoding
// (extra["proof"]["exhaustive_orders"]), rope.example-30deg ("exhaustive_box")
// and carousel.c ("single_speed").
#pragma once

#include "claims/inputs.h"  // six_cell_input
#include "claims/proofs/algebra.h"  // rational, qsqrt3
#include "core/json.h"
#include "laws/attention/permutation_equivariance.h"
#include "numerics/error_bounds.h"
#include "numerics/matrix.h"
#include "numerics/permutation.h"
#include "numerics/ulps.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pv::proofs {

// ---- all orders ----------------------------------------------------------------

/// The six-cell input, shared with the claim perm.six-cells (claims/inputs.h).
using claims::six_cell_input;

/// Problem 5's tokens a = (1, 0), b = (0, 1), c = (1, 1).
matrix<double> p5_tokens();

/// Every permutation of 0..n-1 in lexicographic order (n! of them).
std::vector<permutation> all_permutations(std::size_t n);

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
    const auto B = law::reorder_tolerance(PX, projections<T>{}, o);
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

/// All orders of a token set: hp within the reorder bound, and the correctly
/// rounded reduction in float64 and float32 bit for bit.
json prove_all_orders(const matrix<double>& X, const std::string& input_doc);

/// The proof of perm.six-cells (720 orders of six_cell_input(), plus the
/// problem-5 tokens' 6 orders).
json six_cell_proof();

/// The proof of p5.no-encoding (all 6 orders of a, b, c).
json p5_orders_proof();

// ---- the 30-degree example in Q(sqrt 3) -----------------------------------------

/// A 2-vector with entries in Q(sqrt 3).
using vec3 = std::array<qsqrt3, 2>;

/// How a 2-vector is rotated by (c, s) = (cos, sin): the correct rotation
/// (x0 c - x1 s, x0 s + x1 c), or a planted faulty one for the tests.
using rotation_rule = std::function<vec3(const vec3& x, const qsqrt3& c, const qsqrt3& s)>;
/// (x0 c - x1 s, x0 s + x1 c).
vec3 rotate_exact(const vec3& x, const qsqrt3& c, const qsqrt3& s);

/// The outcome of the 30-degree box.
struct rope30_proof {
  long box = 0;                 ///< m, n, s range over [0, box)
  long triples = 0;             ///< box^3 triples checked
  bool shift_invariant = true;  ///< dot(m+s, n+s) == dot(m, n) exactly, for all triples
  bool depends_on_diff_mod_12 = true;  ///< dot(m, n) == D[(m - n) mod 12]
  std::string counterexample;   ///< the first failing (m, n, s), exactly
  std::array<qsqrt3, 12> by_difference;  ///< D[k], k = (m - n) mod 12
  qsqrt3 dot_2_5, dot_7_10, dot_3_4;     ///< the chapter's three pairs
};

/// Checks, for q and k given exactly and 30 degrees per position (cos 30 =
/// sqrt3/2, sin 30 = 1/2; R(p) built by exact angle addition from R(1)),
/// every m, n, s in [0, box).
rope30_proof prove_rope30(const vec3& q, const vec3& k, long box,
                          const rotation_rule& rotate = rotate_exact);

/// {"method", "box", "triples", "shift_invariant", "dot_by_difference_mod_12", ..., "verdict"}.
json to_json(const rope30_proof& p);

/// The 30-degree example: q = k = (1, 0) and a generic pair in Q(sqrt 3),
/// every m, n, s in [0, 64).
json rope30_box_proof();

// ---- one speed -----------------------------------------------------------------

/// The outcome of one speed w = 2 pi p / q.
struct single_speed_proof {
  long p = 0, q = 0;       ///< w = 2 pi p / q
  long distances = 0;      ///< distances 0 .. 3q - 1 compared pairwise
  long pairs = 0;
  bool alike_iff_congruent = true;  ///< R(d1 w) == R(d2 w) <=> d1 = d2 mod q
  std::string counterexample;
};

/// With one speed w = 2 pi p/q, the rotation at distance d is a turn by the
/// fraction d p / q; two rotations are equal iff those fractions differ by a
/// whole number. Checks, for all distances d1, d2 in [0, 3q), that they look
/// alike exactly when d1 = d2 (mod q). True iff gcd(p, q) = 1.
single_speed_proof prove_single_speed(long p, long q);

/// {"speed", "distances", "pairs", "alike_iff_congruent_mod_q", "verdict", "counterexample"?}.
json to_json(const single_speed_proof& p);

/// One speed: p/q in {1/12, 5/12, 3/7, 7/30, 11/64}.
json single_speed_proofs();

}  // namespace pv::proofs
