// The bitwise study of the six cells over all 720 orders, and its attachment
// to perm.six-cells (bitwise_study.h).
#include "claims/proofs/bitwise_study.h"
#include "core/verdict.h"

#include "claims/registry.h"
#include "claims/proofs/exhaustive.h"

#include <algorithm>

namespace pv::proofs {

matrix<double> study_input(std::uint64_t seed, std::uint64_t index, std::size_t rows,
                           std::size_t cols) {
  std::uint64_t st = seed * 0x100000001b3ULL ^ (index + 0x51ed270b27a1ULL);
  matrix<double> X(rows, cols);
  for (auto& x : X.a) {
    const auto k = static_cast<std::int64_t>(splitmix64(st) % ((1u << 21) + 1)) - (1 << 20);
    x = static_cast<double>(k) / static_cast<double>(1 << 19);
  }
  return X;
}

namespace {

template <class T>
std::int64_t max_ulps_of_order(const matrix<double>& X0, const permutation& perm,
                               const attention_options<T>& o) {
  const auto X = convert_matrix<T>(X0);
  const auto base = permute_rows(attention(X, X, X, o), perm);
  const auto PX = permute_rows(X, perm);
  const auto out = attention(PX, PX, PX, o);
  std::int64_t m = 0;
  for (std::size_t k = 0; k < out.a.size(); ++k) m = std::max(m, ulp_distance(out.a[k], base.a[k]));
  return m;
}

template <class T>
study_cell run_cell(reduction red, std::uint64_t seed, std::uint64_t inputs) {
  study_cell c;
  c.type = type_name<T>();
  c.reduction = to_string(red);
  attention_options<T> o;
  o.sum = red;
  const auto six = sweep_orders<T>(six_cell_input(), o);
  c.six_cell_max_ulps = six.max_ulps;
  c.six_cell_bitwise = six.bitwise_equal;
  c.within_reorder_bound = six.within_bound;
  c.chapter_order_max_ulps = max_ulps_of_order<T>(six_cell_input(), chapter_six_cell_order(), o);
  c.random_inputs = inputs;
  for (std::uint64_t i = 0; i < inputs; ++i) {
    const auto X0 = study_input(seed, i);
    const auto X = convert_matrix<T>(X0);
    const auto base = attention(X, X, X, o);
    for (const auto& perm : all_permutations(6)) {
      const auto PX = permute_rows(X, perm);
      const auto out = attention(PX, PX, PX, o);
      const auto Pb = permute_rows(base, perm);
      std::int64_t m = 0;
      bool same = true;
      for (std::size_t k = 0; k < out.a.size(); ++k) {
        m = std::max(m, ulp_distance(out.a[k], Pb.a[k]));
        same = same && same_bits(out.a[k], Pb.a[k]);
      }
      ++c.random_orders;
      if (!same) ++c.random_orders_not_bitwise;
      if (m > c.random_max_ulps) {
        c.random_max_ulps = m;
        c.worst_index = i;
      }
    }
  }
  return c;
}

}  // namespace

template <class T>
std::vector<std::int64_t> ulps_per_order(reduction red) {
  attention_options<T> o;
  o.sum = red;
  std::vector<std::int64_t> out;
  for (const auto& perm : all_permutations(6)) out.push_back(max_ulps_of_order<T>(six_cell_input(), perm, o));
  return out;
}

std::vector<std::int64_t> six_cell_ulps_per_order(bool float32, bool correctly_rounded) {
  const auto red = correctly_rounded ? reduction::correctly_rounded : reduction::sequential;
  return float32 ? ulps_per_order<float>(red) : ulps_per_order<double>(red);
}

std::vector<study_cell> bitwise_study(std::uint64_t seed, std::uint64_t inputs) {
  std::vector<study_cell> cells;
  for (auto red : {reduction::sequential, reduction::correctly_rounded}) {
    cells.push_back(run_cell<double>(red, seed, inputs));
    cells.push_back(run_cell<float>(red, seed, inputs));
  }
  return cells;
}

json to_json(const std::vector<study_cell>& cells, std::uint64_t seed) {
  json j = json::object();
  j.set("question", json::string("does attention(P X) equal P attention(X) bit for bit over all 720 "
                                 "orders of six cells (\"largest difference 0\")?"));
  j.set("six_cell_input", json::string(std::string(claims::six_cell_formula) + ", 6 x 4"));
  j.set("random_inputs", json::string("6 x 4, entries k/2^19, k uniform in [-2^20, 2^20], "
                                      "splitmix64(seed, index); seed " + std::to_string(seed)));
  json rows = json::array();
  for (const auto& c : cells) {
    json o = json::object();
    o.set("type", json::string(c.type));
    o.set("reduction", json::string(c.reduction));
    o.set("six_cells_max_ulps_720_orders", json::integer(c.six_cell_max_ulps));
    o.set("six_cells_bitwise_exact", json::boolean(c.six_cell_bitwise));
    o.set("chapter_order_max_ulps", json::integer(c.chapter_order_max_ulps));
    o.set("within_reorder_bound", json::boolean(c.within_reorder_bound));
    o.set("random_inputs", json::integer(static_cast<std::int64_t>(c.random_inputs)));
    o.set("random_orders", json::integer(static_cast<std::int64_t>(c.random_orders)));
    o.set("random_orders_not_bitwise", json::integer(static_cast<std::int64_t>(c.random_orders_not_bitwise)));
    o.set("random_max_ulps", json::integer(c.random_max_ulps));
    o.set("random_worst_input", json::string("seed " + std::to_string(seed) + ", index " +
                                             std::to_string(c.worst_index)));
    o.set("bitwise_exact", json::boolean(c.six_cell_bitwise && c.random_orders_not_bitwise == 0));
    rows.push(o);
  }
  j.set("rows", rows);
  bool cr_exact = true, seq_exact = true, seq_within = true;
  std::int64_t seq_ulps = 0;
  for (const auto& c : cells) {
    const bool exact = c.six_cell_bitwise && c.random_orders_not_bitwise == 0;
    (c.reduction == "sequential" ? seq_exact : cr_exact) &= exact;
    if (c.reduction == "sequential") {
      seq_ulps = std::max({seq_ulps, c.six_cell_max_ulps, c.random_max_ulps});
      seq_within = seq_within && c.within_reorder_bound;
    }
  }
  j.set("sequential_six_cell_within_reorder_bound", json::boolean(seq_within));
  // The study's verdict counts for perm.six-cells (claims/registry.cpp): the
  // correctly rounded reduction must be bitwise exact and the sequential one
  // within the reorder bound.
  j.set("verdict", json::string(pv::qualified(
                       cr_exact && seq_within ? pv::verdict::proved : pv::verdict::disproved,
                       cr_exact && seq_within ? "correctly rounded: bitwise exact; sequential: within the reorder bound" : "")));
  j.set("conclusion",
        json::string(std::string("correctly rounded reduction: ") +
                     (cr_exact ? "bitwise exact over every order and input" : "NOT bitwise exact") +
                     "; sequential reduction: " +
                     (seq_exact ? "bitwise exact here"
                                : "not bitwise exact, up to " + std::to_string(seq_ulps) +
                                      " ulps apart (on the six-cell input " +
                                      (seq_within ? "within" : "OUTSIDE") +
                                      " the reorder bound)")));
  return j;
}

}  // namespace pv::proofs

PV_CLAIM_PROOF("perm.six-cells", "bitwise study", [](const pv::claims::claim_context& ctx, pv::claim_result& r) {
  r.extra.set("bitwise_study", pv::proofs::to_json(pv::proofs::bitwise_study(ctx.seed, 20), ctx.seed));
});
