// encoding.breaks_permutation_symmetry (CLAIMS.md, core laws; problem 5 "with
// encoding"), written once: once positions are encoded, by adding sinusoids
// (Vaswani et al. 2017, section 3.5) or by rotating queries and keys (Su et
// al. 2021, RoPE), permuting the tokens no longer just permutes the outputs.
// Positions stay attached to the slots o, o+1, ..., o+n-1, the tokens move.
//
// The law is a break: on a case it holds when some entry of attention(P X)
// differs from the same entry of P attention(X) by more than `margin` times
// the sum of both evaluations' a-priori forward errors (so the difference
// cannot be rounding).
// Judge: the property (src/properties/encoding/breaks_permutation_symmetry.cpp),
// which draws the generic tokens, the encoding, the permutation and o.
#pragma once

#include "laws/largest_excess.h"
#include "numerics/attention.h"
#include "numerics/error_bounds.h"
#include "numerics/permutation.h"
#include "numerics/rope.h"
#include "numerics/sinusoid.h"

#include <string>
#include <utility>
#include <vector>

namespace pv::laws::breaks_permutation_symmetry {

inline constexpr const char* id = "encoding.breaks_permutation_symmetry";

/// The margin by which the difference must exceed the rounding bound.
inline constexpr int margin = 16;

inline std::string statement() {
  return "with positions encoded (additive sinusoid on the input, or RoPE on queries and keys; "
         "positions o, o+1, ..., o+n-1 stay with the slots, o <= 8), a non-identity "
         "permutation P of generic tokens gives attention(P X) != P attention(X). Generic "
         "input: n in 3..8 distinct tokens of even width d in 4..16, entries drawn uniformly "
         "with magnitude in [1/4, 1] and random signs, base^(-2i/d) ladder (fastest speed 1 "
         "rad per position). Excluded on purpose: tiny magnitudes (RoPE attention becomes "
         "near-uniform over unrotated values and the difference shrinks like |x|^3 into the "
         "rounding level), large ones (softmax saturates on the self-score and the other "
         "weights are exponentially small), near-tied tokens (a swap of near-equal tokens is "
         "invisible), and n = 2 (a RoPE swap is then witnessed by one cross term "
         "sum_p 2 sin(w_p) (a_p x b_p) alone, which vanishes on a hypersurface of inputs, "
         "e.g. when the two tokens' rotated pairs are parallel)";
}

inline std::string tolerance_rule() {
  return "the difference must exceed the rounding bound by a margin of 16 at some entry (over "
         "20000 cases the smallest margin seen was 365 in float32 with RoPE): the "
         "bound is the sum of the a-priori forward errors of both evaluations "
         "(attention_forward_bound: score errors from the encoding's angle rounding "
         "u|m w| + 2 ulps of sin/cos and gamma_d dot products, 2 ulps per exp, gamma_n sums), "
         "so the difference cannot be rounding; in hp the bound is at the reference precision";
}

/// The encoding of a case: RoPE on queries and keys (pairing `pair`) or the
/// additive sinusoid, on the ladder base^(-2i/d).
struct encoding {
  bool rope = false;
  pairing pair = pairing::adjacent;
  std::size_t d = 2;
  double base = 10000;
};

/// Attention of X with positions `pos` attached to the rows, and the forward
/// error bound of every output entry against the exact value.
template <class T>
std::pair<matrix<T>, matrix<hp>> encoded_attention(const encoding& enc, const matrix<T>& X,
                                                   const std::vector<double>& pos) {
  if (enc.rope) {
    const auto L = rope_ladder<T>(enc.d, T(enc.base), enc.pair);
    const auto P1 = positions_1d(pos);
    const auto R = rope_apply(L, X, P1);
    const auto eR = rope_apply_error(L, X, P1);
    return {rope_self_attention(L, X, P1), attention_forward_bound(R, R, X, eR, eR, matrix<hp>{})};
  }
  const auto w = geometric_speeds<T>(enc.d, T(enc.base));
  const auto Z = add(X, sinusoid<T>(pos, enc.d, T(enc.base)));
  auto eZ = sinusoid_error<T>(pos, w);  // plus the rounding of the addition
  const hp u = convert<hp>(unit_roundoff<T>());
  for (std::size_t i = 0; i < eZ.a.size(); ++i) eZ.a[i] += u * abs(convert<hp>(Z.a[i])) * (1 + 2 * u);
  return {self_attention(Z), attention_forward_bound(Z, Z, Z, eZ, eZ, eZ)};
}

/// evaluate(case, T): the tokens X0 rounded to T at slots offset, offset + 1,
/// ...; the witness of attention(P X) against P attention(X) (holds when it
/// exceeds `margin`).
template <class T>
largest_excess evaluate(const encoding& enc, const matrix<double>& X0, const permutation& perm, double offset) {
  const auto X = convert_matrix<T>(X0);
  std::vector<double> pos(X.rows);
  for (std::size_t i = 0; i < pos.size(); ++i) pos[i] = offset + double(i);
  const auto [A, BA] = encoded_attention<T>(enc, X, pos);
  const auto [C, BC] = encoded_attention<T>(enc, permute_rows(X, perm), pos);
  // If the law of the unencoded case held, |C_ic - A_perm[i],c| <= BC_ic +
  // BA_perm[i],c for every entry. Find the entry that exceeds it the most.
  largest_excess x;
  for (std::size_t i = 0; i < C.rows; ++i)
    for (std::size_t c = 0; c < C.cols; ++c)
      x.consider(abs(convert<hp>(C(i, c)) - convert<hp>(A(perm[i], c))), BC(i, c) + BA(perm[i], c), i, c);
  return x;
}

}  // namespace pv::laws::breaks_permutation_symmetry
