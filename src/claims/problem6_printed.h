// The chapter's printed numbers of problem 6, typed once: the claims
// (claims/problem6.cpp) compare their computed values with these and print
// them under `printed`; the certificates (proofs/chapter_numbers.cpp)
// certify the same numbers from the same sides.
#pragma once

#include <cstdint>

namespace pv::claims::printed_numbers {

/// p6.sd-no-encoding: a 64 x 64 feature map is a row of 4096 cells.
struct p6_sd_no_encoding_t {
  std::int64_t side = 64, tokens = 4096;
};
inline constexpr p6_sd_no_encoding_t p6_sd_no_encoding{};

/// p6.identical-centres: two centres with identical surroundings, largest
/// difference 0.
struct p6_identical_centres_t {
  std::int64_t max_abs_diff_hp = 0;
};
inline constexpr p6_identical_centres_t p6_identical_centres{};

/// p6.flux-bag: a 1024 x 1024 picture is 64 x 64 = 4096 tokens.
struct p6_flux_bag_t {
  std::int64_t picture_side = 1024, tokens = 4096;
};
inline constexpr p6_flux_bag_t p6_flux_bag{};

}  // namespace pv::claims::printed_numbers
