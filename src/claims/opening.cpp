// Opening section of the chapter: attention with no positional encoding does
// not know order (perm.six-cells, perm.word-order, perm.picture-rows).
#include "claims/common.h"
#include "claims/opening_printed.h"

namespace {

using namespace pv;
using namespace pv::claims;

// perm.six-cells: six cells of a one-row picture, four channels each, fixed
// entries (inputs.h six_cell_input(), the input of the bitwise study and the
// exhaustive proof too), shuffled into [5, 2, 4, 0, 1, 3].
PV_CLAIM("perm.six-cells", [](const claim_context&) {
  auto r = make("perm.six-cells",
                "self-attention (identity projections, 1/sqrt(d) scale) of six cells x 4 channels "
                "with fixed entries " + std::string(six_cell_formula) + " (in float64), against the "
                "same cells in the order [5, 2, 4, 0, 1, 3]: max |A(PX) - P A(X)| in mpfr, float64 "
                "and float32 (sequential sums), each against the reorder bound 2 (gamma_n + "
                "gamma_{n-1} + 2u) sum_j p_j |v_jc| of its own type");
  const auto X = six_cell_input();
  const auto perm = chapter_six_cell_order();
  auto h = permutation_law<hp>(X, perm);
  auto d = permutation_law<double>(X, perm);
  auto f = permutation_law<float>(X, perm);
  auto dc = permutation_law<double>(X, perm, {}, reduction::correctly_rounded);
  const auto ulps_f64 = static_cast<std::int64_t>(d.max_ulps), ulps_f32 = static_cast<std::int64_t>(f.max_ulps);
  r.values.set("max_abs_diff_hp", dec(h.max_abs_diff));
  r.values.set("max_abs_diff_f64", dec(d.max_abs_diff));
  r.values.set("max_abs_diff_f32", dec(f.max_abs_diff));
  r.values.set("bitwise_equal_f64", json::boolean(d.bitwise_equal));
  r.values.set("max_ulps_f64", json::integer(ulps_f64));
  r.values.set("max_ulps_f32", json::integer(ulps_f32));
  r.values.set("bound_f64", dec(d.max_bound));
  r.values.set("max_abs_diff_f64_correctly_rounded", dec(dc.max_abs_diff));
  const auto& P = printed_numbers::perm_six_cells;
  const hp printed_diff(P.max_abs_diff_hp);
  r.printed.set("max_abs_diff_hp", json::string(std::to_string(P.max_abs_diff_hp)));
  if (!h.within || !d.within || !f.within) {
    r.result = verdict::fails;
    r.qualification = "the permutation law exceeds its reorder bound: mpfr diff " +
                      fig(h.max_abs_diff) + " (bound " + fig(h.max_bound) + "), float64 " +
                      fig(d.max_abs_diff) + " (bound " + fig(d.max_bound) + "), float32 " +
                      fig(f.max_abs_diff) + " (bound " + fig(f.max_bound) + ")";
  } else if (h.max_abs_diff == printed_diff && d.max_abs_diff == printed_diff && f.max_abs_diff == printed_diff) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::holds_qualified;
    r.qualification =
        "exact in real arithmetic (mpfr difference " + fig(h.max_abs_diff) +
        ", within the reference's reorder bound " + fig(h.max_bound) +
        "); not bit for bit in IEEE with sequential sums over keys: float64 differs by up to " +
        fig(d.max_abs_diff) + " (" + std::to_string(ulps_f64) + " ulps, bitwise equal: " +
        (d.bitwise_equal ? "yes" : "no") + "), float32 by " + fig(f.max_abs_diff) + " (" +
        std::to_string(ulps_f32) + " ulps), both within their reorder bounds; with correctly rounded "
        "(order-independent) sums the float64 difference is " + fig(dc.max_abs_diff);
    r.summary = "exact in real arithmetic, but reordering the six cells moves float64 outputs by up to " +
                std::to_string(ulps_f64) + " ulps and float32 by " + std::to_string(ulps_f32) +
                " (sequential sums, within the reorder bound; correctly rounded sums: " +
                (dc.max_abs_diff == 0 ? std::string("bit for bit") : fig(dc.max_abs_diff)) + ")";
  }
  return r;
});

// The word vectors of perm.word-order: one fixed row per word.
matrix<double> embed(const std::vector<std::string>& words) {
  const std::vector<std::string> vocab = {"the", "dog", "bit", "man"};
  const auto E = fixed_tokens(vocab.size(), 4, 1);
  matrix<double> X(words.size(), 4);
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::size_t v = 0;
    while (vocab[v] != words[i]) ++v;
    for (std::size_t j = 0; j < 4; ++j) X(i, j) = E(v, j);
  }
  return X;
}

PV_CLAIM("perm.word-order", [](const claim_context&) {
  auto r = make("perm.word-order",
                "self-attention with fixed projections Wq, Wk, Wv (entries fixed_entry, salts 2, "
                "3, 4) over fixed word vectors: output row of 'bit' in 'the dog bit the man' "
                "against 'the man bit the dog', in mpfr, against the reference's reorder bound");
  auto X1 = embed({"the", "dog", "bit", "the", "man"});
  auto X2 = embed({"the", "man", "bit", "the", "dog"});
  projections<double> W0{fixed_tokens(4, 4, 2), fixed_tokens(4, 4, 3), fixed_tokens(4, 4, 4)};
  projections<hp> W{convert_matrix<hp>(W0.wq), convert_matrix<hp>(W0.wk), convert_matrix<hp>(W0.wv)};
  auto H1 = convert_matrix<hp>(X1), H2 = convert_matrix<hp>(X2);
  auto A1 = self_attention(H1, W), A2 = self_attention(H2, W);
  auto B = laws::permutation_equivariance::reorder_tolerance(H2, W, attention_options<hp>{});
  const std::size_t verb = 2;
  hp diff = 0, bound = 0;
  for (std::size_t c = 0; c < A1.cols; ++c) {
    hp e = abs(A1(verb, c) - A2(verb, c));
    if (e > diff) diff = e;
    if (B(verb, c) > bound) bound = B(verb, c);
  }
  // The same in float64, for the record.
  projections<double> Wd = W0;
  auto D1 = self_attention(X1, Wd), D2 = self_attention(X2, Wd);
  hp diff_d = 0;
  for (std::size_t c = 0; c < D1.cols; ++c) {
    hp e = abs(convert<hp>(D1(verb, c)) - convert<hp>(D2(verb, c)));
    if (e > diff_d) diff_d = e;
  }
  r.values.set("max_abs_diff_hp", dec(diff));
  r.values.set("bound_hp", dec(bound));
  r.values.set("max_abs_diff_f64", dec(diff_d));
  bool different_neighbours = max_abs_diff(A1, A2) > bound;  // the other rows do move
  r.values.set("other_rows_move", json::boolean(different_neighbours));
  if (diff <= bound) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = "the verb's outputs differ by " + fig(diff) + " > bound " + fig(bound);
  }
  return r;
});

PV_CLAIM("perm.picture-rows", [](const claim_context&) {
  auto r = make("perm.picture-rows",
                "self-attention of a 4 x 3 picture (12 cells x 4 channels, fixed entries, salt 3) "
                "flipped upside down: max |A(FX) - F A(X)| in mpfr against the reference's "
                "reorder bound");
  const std::size_t H = 4, W = 3;
  auto X = fixed_tokens(H * W, 4, 3);
  auto h = permutation_law<hp>(X, vertical_flip(H, W));
  auto d = permutation_law<double>(X, vertical_flip(H, W));
  r.values.set("max_abs_diff_hp", dec(h.max_abs_diff));
  r.values.set("bound_hp", dec(h.max_bound));
  r.values.set("max_abs_diff_f64", dec(d.max_abs_diff));
  if (h.within && d.within) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = "flip law broken: mpfr diff " + fig(h.max_abs_diff) + " (bound " +
                      fig(h.max_bound) + "), float64 " + fig(d.max_abs_diff) + " (bound " +
                      fig(d.max_bound) + ")";
  }
  return r;
});

}  // namespace
