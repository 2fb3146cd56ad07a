// The chapter's printed numbers of the opening section, typed once: the claim
// (claims/opening.cpp) compares its differences with these and prints them
// under `printed`. (The order [5, 2, 4, 0, 1, 3] is an input:
// chapter_six_cell_order() in posverify/permutation.h.)
#pragma once

#include <cstdint>

namespace pv::claims::printed_numbers {

/// perm.six-cells: shuffled, every cell receives the same vector, "largest
/// difference 0".
struct perm_six_cells_t {
  std::int64_t max_abs_diff_hp = 0;
};
inline constexpr perm_six_cells_t perm_six_cells{};

}  // namespace pv::claims::printed_numbers
