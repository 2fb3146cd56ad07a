// attention.permutation_equivariance (CLAIMS.md, core laws; the chapter's
// opening and problems 5 and 6), written once: with no positional encoding,
// self-attention only moves its outputs with the tokens, A(P X) = P A(X).
//
// The parts every judge shares:
//   - statement() / statement_qkv(): what the law says on token rows (the
//     property) and on the query rows of a kernel A(q, k, v) (the black-box
//     check);
//   - draw_order(g, n): the case generator's permutation (Fisher-Yates from
//     the one seeded generator);
//   - compare(...) / evaluate(...): runs the law on one case and returns the
//     largest difference, the largest bound and where the worst entry is;
//   - the two tolerance rules: reorder_tolerance (white box: an
//     implementation whose sums we know, only their order over keys changes,
//     error_bounds.h; reorder_tolerance_f64 the same bound evaluated in
//     float64 for large n) and any_order_tolerance (black box: a user's kernel
//     may sum in any order, so each output is within the a-priori bound B of
//     any_order_bound.h of the exact value, and two of them within 2 B).
// Judges: the property (src/properties/attention/permutation_equivariance.cpp),
// the black-box check (blackbox/attention_laws.cpp), the error-budget row
// (budgets/budgets.cpp), the exhaustive sweep (claims/proofs/exhaustive.h)
// and the claims of fixed cases (claims/opening.cpp, claims/problem5.cpp,
// claims/problem6.cpp).
#pragma once

#include "laws/attention/any_order_bound.h"
#include "numerics/attention.h"
#include "numerics/error_bounds.h"
#include "numerics/permutation.h"
#include "core/seeded.h"

#include <cmath>
#include <cstring>  // std::memcmp
#include <limits>
#include <string>

namespace pv::laws::permutation_equivariance {

inline constexpr const char* id = "attention.permutation_equivariance";

/// The law on token rows X (white box: the judge computes attention itself).
inline std::string statement() { return "attention(P X) = P attention(X) for every permutation P"; }
/// The law on the query rows of a kernel called as A(q, k, v) (black box).
inline std::string statement_qkv() {
  return "permuting the query rows permutes the output rows: A(Pq, k, v) = P A(q, k, v)";
}
/// The white-box tolerance rule in words (reorder_tolerance below).
inline std::string tolerance_rule() {
  return "float32 and float64: within 2 g (1 + 4 g) sum_j p_j |v_jc| + 4 n floor per entry, g = "
         "gamma_n + gamma_{n-1} + 2u (recursive summation over the n keys, Higham 4.4), since "
         "only the order of the sums over keys changes";
}

/// The case generator's order: a uniformly random permutation of n rows.
inline permutation draw_order(seeded& g, std::size_t n) { return random_permutation(g, n); }

/// The outcome of the law on one case.
struct outcome {
  hp max_abs_diff = 0;        ///< max over entries |A(PX)_rc - A(X)_{P[r]c}|
  hp max_bound = 0;           ///< the largest tolerance of an entry
  hp max_ratio = 0;           ///< max |diff| / bound over entries with bound > 0
  bool within = true;         ///< every entry within its tolerance
  bool bitwise_equal = true;  ///< IEEE: identical bits; hp: diff = 0
  std::size_t worst_row = 0, worst_col = 0;  ///< first entry attaining max_abs_diff (row of A(PX))
  std::size_t entries = 0;    ///< entries compared (fewer when a judge stopped early)
};

/// One compared entry, as a judge's visitor sees it: entry (row, col) of
/// A(PX) (`permuted`) against entry (source, col) of A(X) (`original`).
template <class T>
struct entry {
  std::size_t row, col, source;
  const T& permuted;
  const T& original;
  const hp& diff;
  const hp& bound;
};

struct visit_all {
  template <class E>
  bool operator()(const E&) const { return true; }
};

/// The law body. `source[r]` is the row of A(X) that row r of A(PX) must
/// equal (the permutation P; an empty `source` means the identity, as for
/// permuting keys and values together); `bound(r, c)` is the tolerance of
/// entry (r, c) of A(PX). `visit(entry)` sees each entry in row-major order
/// and returns false to stop.
template <class T, class Bound, class Visit = visit_all>
outcome compare(const matrix<T>& A, const matrix<T>& A_P, const permutation& source, Bound&& bound,
                Visit&& visit = {}) {
  outcome o;
  for (std::size_t r = 0; r < A_P.rows; ++r) {
    const std::size_t src = source.empty() ? r : source[r];
    for (std::size_t c = 0; c < A_P.cols; ++c) {
      const hp diff = abs(convert<hp>(A_P(r, c)) - convert<hp>(A(src, c)));
      const hp b = bound(r, c);
      if (diff > o.max_abs_diff || o.entries == 0) {
        o.worst_row = r;
        o.worst_col = c;
        if (diff > o.max_abs_diff) o.max_abs_diff = diff;
      }
      ++o.entries;
      if (b > o.max_bound) o.max_bound = b;
      if (!(diff <= b)) o.within = false;
      if (b > 0 && diff / b > o.max_ratio) o.max_ratio = diff / b;
      if constexpr (is_ieee_v<T>) {
        if (std::memcmp(&A_P(r, c), &A(src, c), sizeof(T)) != 0) o.bitwise_equal = false;
      } else {
        if (diff != 0) o.bitwise_equal = false;
      }
      if (!visit(entry<T>{r, c, src, A_P(r, c), A(src, c), diff, b})) return o;
    }
  }
  return o;
}

/// White-box tolerance: the reorder bound of error_bounds.h on the permuted
/// inputs (the implementation's exponentials are the same in both runs; only
/// the order of the sums over keys changes).
template <class T>
matrix<hp> reorder_tolerance(const matrix<T>& PX, const projections<T>& W,
                             const attention_options<T>& o) {
  return attention_reorder_bound(project(PX, W.wq), project(PX, W.wk), project(PX, W.wv), o);
}

/// The same bound for self-attention with identity projections, evaluated in
/// float64 (the hp evaluation would take minutes at n = 4096): its own
/// rounding is below n u relative, so it is inflated by (1 + 2 n u) and stays
/// an upper bound.
inline matrix<double> reorder_tolerance_f64(const matrix<double>& PX) {
  const std::size_t n = PX.rows;
  const double u = unit_roundoff<double>();
  const double g = gamma<double>(static_cast<long>(n)) + gamma<double>(static_cast<long>(n - 1)) + 2 * u;
  const double inflate = 1 + 2 * static_cast<double>(n) * u;
  matrix<double> B(n, PX.cols);
  std::vector<double> e;
  attention_options<double> o;
  for (std::size_t i = 0; i < n; ++i) {
    const double z = exp_scores_row(PX, PX, i, o, e);
    for (std::size_t c = 0; c < PX.cols; ++c) {
      double s = 0;
      for (std::size_t j = 0; j < n; ++j) s += e[j] * std::abs(PX(j, c));
      B(i, c) = (2 * (g * s / z * (1 + 4 * g)) +
                 4 * static_cast<double>(n) * std::numeric_limits<double>::denorm_min()) *
                inflate;
    }
  }
  return B;
}

/// The black-box tolerance rule in words (any_order_tolerance below).
inline std::string any_order_tolerance_rule() {
  return "|A(Pq)_i - A(q)_perm(i)| <= 2 B, " + attention_bound::any_order_rule();
}

/// Black-box tolerance: entry (r, c) of A(Pq, k, v) and entry (P[r], c) of
/// A(q, k, v) are each within B(P[r], c) of the same exact value (B the
/// any-order bound of q, k, v: attention_bound::any_order), so within 2 B.
inline hp any_order_tolerance(const matrix<hp>& B, const permutation& P, std::size_t r, std::size_t c) {
  return 2 * B(P[r], c);
}

/// The black-box judge of one case: the kernel's outputs A(q, k, v) and
/// A(Pq, k, v), B the any-order bound of (q, k, v).
template <class T, class Visit = visit_all>
outcome compare_any_order(const matrix<T>& A, const matrix<T>& A_P, const permutation& P,
                          const matrix<hp>& B, Visit&& visit = {}) {
  return compare(
      A, A_P, P, [&](std::size_t r, std::size_t c) -> hp { return any_order_tolerance(B, P, r, c); }, visit);
}

/// evaluate(case, implementation): runs `impl` (tokens -> outputs, in T) on X
/// and on P X and compares them within `tolerance(PX)` (a matrix of bounds
/// indexed like A(PX)).
template <class T, class Impl, class Tolerance, class Visit = visit_all>
outcome evaluate(const matrix<T>& X, const permutation& P, Impl&& impl, Tolerance&& tolerance,
                 Visit&& visit = {}) {
  const auto A = impl(X);
  const auto PX = permute_rows(X, P);
  const auto A_P = impl(PX);
  const auto B = tolerance(PX);
  return compare(A, A_P, P, [&](std::size_t r, std::size_t c) -> hp { return convert<hp>(B(r, c)); },
                 visit);
}

/// The white-box judge of one case: self-attention in T (projections W0,
/// sums `sum`) of the tokens X0 rounded to T, within reorder_tolerance.
template <class T, class Visit = visit_all>
outcome evaluate_attention(const matrix<double>& X0, const permutation& P,
                           const projections<double>& W0 = {},
                           reduction sum = reduction::sequential, Visit&& visit = {}) {
  const auto X = convert_matrix<T>(X0);
  const projections<T> W{convert_matrix<T>(W0.wq), convert_matrix<T>(W0.wk),
                         convert_matrix<T>(W0.wv)};
  attention_options<T> o;
  o.sum = sum;
  return evaluate(
      X, P, [&](const matrix<T>& Y) { return self_attention(Y, W, o); },
      [&](const matrix<T>& PX) { return reorder_tolerance(PX, W, o); }, visit);
}

}  // namespace pv::laws::permutation_equivariance
