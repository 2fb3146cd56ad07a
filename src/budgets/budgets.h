// Error budgets, in the style of Boost.Math's accuracy tables: for
// each built-in implementation (float32/float64, sequential/correctly
// rounded) and each law, the largest and RMS error observed in ulps and in
// units of the a-priori bound the tolerance uses (numerics/error_bounds.h),
// with the worst input (replayable from the seed and the case index).
// Written by `posverify budgets` to error_budgets.md / .json
// (reports/budgets_report.h).
#pragma once

#include "core/json.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pv::budgets {

struct budget_row {
  std::string law;        ///< e.g. "attention forward error"
  std::string bound;      ///< the a-priori bound, by name
  std::string impl;       ///< e.g. "float64 sequential"
  std::uint64_t cases = 0;
  std::uint64_t entries = 0;   ///< compared numbers (entries of all cases)
  double max_ulps = 0, rms_ulps = 0;
  double max_ratio = 0, rms_ratio = 0;  ///< observed / bound
  std::uint64_t worst_case = 0;         ///< case index of max_ratio
  std::string worst_input;              ///< lossless
  bool within_bound = true;             ///< max_ratio <= 1
};

/// Runs every law for every implementation, on the random cases
/// first_case .. first_case + cases - 1 of `seed` (case i depends only on
/// seed and i, so any case replays alone). `bound_scale` multiplies every
/// bound (1 normally; a planted test shrinks it to show that an exceeded
/// bound is caught). `step` is called after each of the budget_groups
/// groups of rows (a law on one dtype and summation; the progress line).
inline constexpr long budget_groups = 10;
std::vector<budget_row> run_budgets(std::uint64_t seed, std::uint64_t cases, double bound_scale = 1,
                                    std::uint64_t first_case = 0, const std::function<void()>& step = {});

}  // namespace pv::budgets
