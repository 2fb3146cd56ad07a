// The chapter's printed numbers of the FLUX.1 section, typed once: the claims
// (claims/flux.cpp) compare the measured layout with these and print them
// under `printed`.
#pragma once

#include <array>
#include <cstdint>

namespace pv::claims::printed_numbers {

/// flux.axes: a head's 128 components split 16 + 56 + 56 (image number, row,
/// column), theta 10000.
struct flux_axes_t {
  std::array<std::int64_t, 3> axes_dim = {16, 56, 56};
  std::int64_t theta = 10000, head_dim = 128;
};
inline constexpr flux_axes_t flux_axes{};

}  // namespace pv::claims::printed_numbers
