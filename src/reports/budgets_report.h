// error_budgets.json and error_budgets.md: the rows of budgets/budgets.h, the
// largest and RMS error of each law and implementation in ulps and in units
// of its bound, with the worst input.
#pragma once

#include "budgets/budgets.h"
#include "core/json.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pv::reports {

json budgets_to_json(const std::vector<budgets::budget_row>& rows, std::uint64_t seed, std::uint64_t cases);
std::string budgets_to_markdown(const std::vector<budgets::budget_row>& rows, std::uint64_t seed,
                                std::uint64_t cases);

}  // namespace pv::reports
