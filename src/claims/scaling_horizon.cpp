// The carousel's question asked of current models: how
// each RoPE configuration of docs/rope-configs.md moves the multi-speed
// collision horizon of `carousel.d`, the smallest distance at which every
// pair lines up within eps of a whole turn again. A study attached to
// carousel.d's record (extra.horizon_under_model_scalings); it does not
// change that claim's values or verdict, which are about the chapter's
// theta 10000, d = 128 ladder.
#include <numbers>
#include <optional>

#include "claims/collision_search.h"
#include "claims/common.h"
#include "numerics/rope_scaling.h"

namespace {

using namespace pv;
using namespace pv::claims;

/// One row: a ladder (or the pairs of one axis of a multi-axis layout).
struct horizon_row {
  const char* configuration;  ///< what it is, in words
  const char* spelling;       ///< its --rope-config / --rope-preset spelling
  const char* axis;           ///< the axis whose pairs move (multi-axis layouts), or ""
  std::size_t rotated;        ///< R: the ladder is theta'^(-2k/R) over R components
  double theta;
  rope_scaling scaling;
  std::size_t first_pair = 0,
              n_pairs = 0;              ///< the pairs of this axis (0, 0: all R/2)
  std::optional<std::int64_t> context;  ///< the model's published context length
};

rope_scaling scaling(rope_scaling_kind k, double f, double lo = 0, double hi = 0, double L0 = 0,
                     double L = 0) {
  rope_scaling s;
  s.kind = k, s.factor = f, s.low = lo, s.high = hi, s.original_length = L0, s.length = L;
  return s;
}

/// The configurations: the chapter's ladder under each scaling with the
/// factors of the examples, then the presets (docs/rope-configs.md
/// cites every number, context lengths included).
std::vector<horizon_row> rows() {
  using K = rope_scaling_kind;
  const rope_scaling none{};
  return {
      {"chapter ladder", "adjacent:10000:128", "", 128, 1e4, none, 0, 0, std::nullopt},
      {"linear interpolation, factor 4", "adjacent:10000:128:linear(4)", "", 128, 1e4,
       scaling(K::linear, 4), 0, 0, std::nullopt},
      {"NTK-aware, factor 4", "adjacent:10000:128:ntk(4)", "", 128, 1e4, scaling(K::ntk, 4), 0, 0,
       std::nullopt},
      {"dynamic NTK, factor 4, at length 16384 of 4096", "adjacent:10000:128:dynamic(4,4096,16384)",
       "", 128, 1e4, scaling(K::dynamic_ntk, 4, 0, 0, 4096, 16384), 0, 0, std::nullopt},
      {"YaRN, factor 16", "halves:10000:128:yarn(16,32,1,4096)", "", 128, 1e4,
       scaling(K::yarn, 16, 1, 32, 4096), 0, 0, std::nullopt},
      {"llama3 rule on the chapter ladder", "halves:10000:128:llama3(8,1,4,8192)", "", 128, 1e4,
       scaling(K::llama3, 8, 1, 4, 8192), 0, 0, std::nullopt},
      {"Llama 3 ladder before scaling", "halves:500000:128", "", 128, 5e5, none, 0, 0, 8192},
      {"Llama 3.1 8B", "--rope-preset llama-3.1-8b", "", 128, 5e5,
       scaling(K::llama3, 8, 1, 4, 8192), 0, 0, 131072},
      {"Phi-2 (partial rotary, 32 of 80)", "--rope-preset phi-2", "", 32, 1e4, none, 0, 0, 2048},
      {"GPT-NeoX-20B (partial rotary, 24 of 96)", "--rope-preset gpt-neox-20b", "", 24, 1e4, none,
       0, 0, 2048},
      {"Qwen2-VL M-RoPE", "--rope-preset qwen2-vl", "temporal (pairs 0-15)", 128, 1e6, none, 0, 16,
       32768},
      {"Qwen2-VL M-RoPE", "--rope-preset qwen2-vl", "height (pairs 16-39)", 128, 1e6, none, 16, 24,
       32768},
      {"Qwen2-VL M-RoPE", "--rope-preset qwen2-vl", "width (pairs 40-63)", 128, 1e6, none, 40, 24,
       32768},
      {"FLUX.1", "--rope-preset flux.1", "image number (16 components)", 16, 1e4, none, 0, 0,
       std::nullopt},
      {"FLUX.1", "--rope-preset flux.1", "row or column (56 components each)", 56, 1e4, none, 0, 0,
       std::nullopt},
  };
}

template <class T>
std::vector<T> speeds_of(const horizon_row& r) {
  auto w = scaled_speeds<T>(r.rotated, T(r.theta), r.scaling);
  if (r.n_pairs == 0) return w;
  return std::vector<T>(w.begin() + static_cast<std::ptrdiff_t>(r.first_pair),
                        w.begin() + static_cast<std::ptrdiff_t>(r.first_pair + r.n_pairs));
}

PV_CLAIM_PROOF("carousel.d", "horizon_under_model_scalings", [](const claim_context& ctx, claim_result& r) {
  if (!ctx.studies) return;  // no verdict in it (the fault matrix skips it)
  const double eps = 1.0 * std::numbers::pi / 180;  // carousel.d's eps, 1 degree
  const std::int64_t limit = 10000000;              // and its search range
  json table = json::array();
  for (const auto& row : rows()) {
    const auto wh = speeds_of<hp>(row);
    const auto wd = speeds_of<double>(row);
    hp slowest = wh[0];
    for (const auto& w : wh) slowest = std::min(slowest, w);
    const auto found = search_collision(wd, eps, limit);
    json o = json::object();
    o.set("configuration", json::string(row.configuration));
    o.set("spelling", json::string(row.spelling));
    if (*row.axis) o.set("axis", json::string(row.axis));
    o.set("pairs", json::integer(static_cast<std::int64_t>(wh.size())));
    o.set("slowest_period_positions", dec(2 * ref::pi() / slowest));
    if (row.context) o.set("context_positions", json::integer(*row.context));
    o.set("first_collision_distance", found.first_hit ? json::integer(found.first_hit) : json());
    if (found.first_hit)
      o.set("first_collision_worst_gap_deg", dec(worst_turn_gap_deg(wh, found.first_hit)));
    o.set("search_from", json::integer(found.first_d));
    o.set("closest_approach_distance", json::integer(found.best_d));
    o.set("closest_approach_deg", dec(worst_turn_gap_deg(wh, found.best_d)));
    std::string reading;
    if (found.first_hit == 0)
      reading = "no distance up to 10^7 lines every pair up within 1 degree of a whole turn";
    else if (row.context && found.first_hit <= *row.context)
      reading =
          "collides within the model's context (" + std::to_string(*row.context) + " positions)";
    else
      reading = "first collision at distance " + std::to_string(found.first_hit) +
                (row.context ? ", beyond the model's context" : "");
    o.set("reading", json::string(reading));
    table.push(std::move(o));
  }
  json study = json::object();
  study.set("question",
            json::string("the smallest distance D at which every rotated pair (of the ladder, or of one "
                         "axis's section) lies within eps of a whole turn once the fastest pair has come "
                         "round (D >= search_from), so that D looks like 0; searched as in carousel.d, "
                         "the gaps confirmed in mpfr"));
  study.set("eps_deg", json::integer(1));
  study.set("search_limit", json::integer(limit));
  study.set("rows", std::move(table));
  r.extra.set("horizon_under_model_scalings", std::move(study));
});

}  // namespace
