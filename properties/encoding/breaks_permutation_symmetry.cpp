// encoding.breaks_permutation_symmetry (CLAIMS.md, core laws; problem 5 "with
// encoding"): once positions are encoded, by adding sinusoids or by rotating
// queries and keys, permuting the tokens no longer just permutes the outputs.
// Positions stay attached to the slots 0..n-1 (plus an offset), the tokens move.
#include "../check.h"

namespace {

using namespace pv;

/// Attention of X with positions attached to the rows, and the forward error
/// bound of every output entry against the exact value.
template <class T>
std::pair<matrix<T>, matrix<hp>> encoded_attention(bool rope, const gen::rope_spec& spec,
                                                   const matrix<T>& X,
                                                   const std::vector<double>& pos) {
  if (rope) {
    const auto L = gen::layout<T>(spec);
    const auto P1 = positions_1d(pos);
    const auto R = rope_apply(L, X, P1);
    const auto eR = rope_apply_error(L, X, P1);
    return {rope_self_attention(L, X, P1), attention_forward_bound(R, R, X, eR, eR, matrix<hp>{})};
  }
  const auto w = geometric_speeds<T>(spec.d, T(spec.theta));
  const auto Z = add(X, sinusoid<T>(pos, spec.d, T(spec.theta)));
  auto eZ = sinusoid_error<T>(pos, w);  // plus the rounding of the addition
  const hp u = convert<hp>(unit_roundoff<T>());
  for (std::size_t i = 0; i < eZ.a.size(); ++i) eZ.a[i] += u * abs(convert<hp>(Z.a[i])) * (1 + 2 * u);
  return {self_attention(Z), attention_forward_bound(Z, Z, Z, eZ, eZ, eZ)};
}

/// The margin by which the difference must exceed the rounding bound.
constexpr int margin = 16;

template <class T>
void check_type(bool rope, const gen::rope_spec& spec, const matrix<double>& X0,
                const permutation& perm, double offset) {
  const auto X = convert_matrix<T>(X0);
  std::vector<double> pos(X.rows);
  for (std::size_t i = 0; i < pos.size(); ++i) pos[i] = offset + double(i);
  const auto [A, BA] = encoded_attention<T>(rope, spec, X, pos);
  const auto [C, BC] = encoded_attention<T>(rope, spec, permute_rows(X, perm), pos);
  // If the law of the unencoded case held, |C_ic - A_perm[i],c| <= BC_ic +
  // BA_perm[i],c for every entry. Find the entry that exceeds it the most.
  hp best = -1, best_diff = 0, best_bound = 0;
  std::size_t bi = 0, bc = 0;
  for (std::size_t i = 0; i < C.rows; ++i)
    for (std::size_t c = 0; c < C.cols; ++c) {
      const hp diff = abs(convert<hp>(C(i, c)) - convert<hp>(A(perm[i], c)));
      const hp bound = BC(i, c) + BA(perm[i], c);
      const hp ratio = diff / bound;
      if (ratio > best) best = ratio, best_diff = diff, best_bound = bound, bi = i, bc = c;
    }
  if (!(best > margin))
    prop::fail(std::string(rope ? "RoPE" : "additive sinusoid") + " [" + type_name<T>() +
               "]: attention(P X) is still P attention(X) within rounding: the largest "
               "difference, at (" + std::to_string(bi) + ", " + std::to_string(bc) + "), is " +
               ref::to_decimal(best_diff, 17) + ", only " + ref::to_decimal(best, 6) +
               " times the rounding bound " + ref::to_decimal(best_bound, 17) + " (need > " +
               std::to_string(margin) + ")");
  if constexpr (std::is_same_v<T, float>) {
    RC_CLASSIFY(best > 1e4, "float margin > 1e4");
    RC_CLASSIFY(best <= 1e4, "float margin in (16, 1e4]");
  }
}

}  // namespace

PV_PROPERTY("encoding.breaks_permutation_symmetry",
            "with positions encoded (additive sinusoid on the input, or RoPE on queries and keys; "
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
            "e.g. when the two tokens' rotated pairs are parallel)",
            "the difference must exceed the rounding bound by a margin of 16 at some entry (over "
            "20000 cases the smallest margin seen was 365 in float32 with RoPE): the "
            "bound is the sum of the a-priori forward errors of both evaluations "
            "(attention_forward_bound: score errors from the encoding's angle rounding "
            "u|m w| + 2 ulps of sin/cos and gamma_d dot products, 2 ulps per exp, gamma_n sums), "
            "so the difference cannot be rounding; in hp the bound is at the reference precision",
            [] {
              const bool rope = *rc::gen::arbitrary<bool>();
              const auto X0 = *gen::generic_tokens({3, 8, 4, 16, true, 0.25, 1.0});
              const auto spec = *gen::rope_1d(X0.cols, X0.cols, true);
              const auto perm = *gen::nonidentity_permutation(X0.rows);
              const auto offset = *gen::position_int(8);
              RC_TAG(rope ? "RoPE" : "additive sinusoid");
              check_type<hp>(rope, spec, X0, perm, double(offset));
              check_type<double>(rope, spec, X0, perm, double(offset));
              check_type<float>(rope, spec, X0, perm, double(offset));
            });
