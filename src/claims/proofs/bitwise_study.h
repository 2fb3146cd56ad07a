// What the chapter's "largest difference 0" for the six cells ("Opening:
// attention does not know order") means in IEEE arithmetic: the permutation
// law attention(P X) = P attention(X) measured in ulps over all 720 orders,
// for the ordinary sequential reduction and the correctly rounded one, in
// float64 and float32, on the documented six-cell input and on random inputs.
// bitwise_study.cpp attaches it to perm.six-cells as extra["bitwise_study"].
#pragma once

#include "core/json.h"
#include "numerics/matrix.h"
#include "core/seeded.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pv::proofs {

/// Random input number `index` of the study for `seed`: 6 x 4 entries
/// k / 2^19 with k uniform in [-2^20, 2^20] (splitmix64 of seed and index, the
/// generator of every replayable case: core/seeded.h), exact in float32 and
/// float64, so both types see the same numbers.
matrix<double> study_input(std::uint64_t seed, std::uint64_t index, std::size_t rows = 6,
                           std::size_t cols = 4);

/// One row of the study: a type and a reduction, on the six cells and the random inputs.
struct study_cell {
  std::string type, reduction;
  std::int64_t six_cell_max_ulps = 0;
  bool six_cell_bitwise = true;
  std::int64_t chapter_order_max_ulps = 0;  ///< the order [5, 2, 4, 0, 1, 3] alone
  std::int64_t random_max_ulps = 0;
  std::uint64_t random_inputs = 0;
  std::uint64_t random_orders = 0;
  std::uint64_t random_orders_not_bitwise = 0;
  std::uint64_t worst_index = 0;  ///< input index attaining random_max_ulps
  bool within_reorder_bound = true;
};

/// Runs the study: both types, both reductions, `inputs` random inputs of
/// `seed` (each with all 720 orders).
std::vector<study_cell> bitwise_study(std::uint64_t seed, std::uint64_t inputs);

/// {"question", "six_cell_input", "random_inputs", "rows", "verdict", "conclusion", ...}.
json to_json(const std::vector<study_cell>& cells, std::uint64_t seed);

/// The ulp distance of each of the 720 orders of the six-cell input (the
/// study's six_cells_max_ulps_720_orders is their maximum), for the HTML
/// report's histogram: float32 or float64, sequential or correctly rounded.
std::vector<std::int64_t> six_cell_ulps_per_order(bool float32, bool correctly_rounded);

}  // namespace pv::proofs
