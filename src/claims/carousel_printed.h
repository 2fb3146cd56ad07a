// The chapter's printed numbers of the carousel claims, typed once: the claims
// (claims/carousel.cpp) compare their computed values with these and print
// them under `printed`; the certificates (proofs/chapter_numbers.cpp) certify
// the same numbers. A new claim's printed numbers get a table like these.
#pragma once

#include <cstdint>

namespace pv::claims::printed_numbers {

/// carousel.a: A at 40 and B at 100, 30 degrees a minute, after 3 minutes.
struct carousel_a_t {
  std::int64_t a_deg = 130, b_deg = 190, gap_deg = 60;
};
inline constexpr carousel_a_t carousel_a{};

/// carousel.b: tickets 2, 5, 7, 10 seated at 30 m degrees, and their gap.
struct carousel_b_t {
  std::int64_t t2_deg = 60, t5_deg = 150, t7_deg = 210, t10_deg = 300, gap_deg = 90;
};
inline constexpr carousel_b_t carousel_b{};

/// carousel.c: one speed of 30 degrees, distance 15, and the period.
struct carousel_c_t {
  std::int64_t angle_15_unwrapped_deg = 450, angle_diff_15_deg = 90, period = 12;
};
inline constexpr carousel_c_t carousel_c{};

}  // namespace pv::claims::printed_numbers
