// The chapter's printed numbers of the worked example, typed once: the claims
// (claims/worked_example.cpp) compare their computed values with these and
// print them under `printed`; the certificates (proofs/chapter_numbers.cpp,
// and the additive reading in proofs/certificates.cpp) certify the same strings.
#pragma once

namespace pv::claims::printed_numbers {

/// rope.example-30deg: q = k = (1, 0), 30 degrees a position; the dots at
/// positions (2, 5), (7, 10) and (3, 4).
struct rope_example_30deg_t {
  const char* dot_2_5 = "0";
  const char* dot_7_10 = "0";
  const char* dot_3_4 = "0.866";
};
inline constexpr rope_example_30deg_t rope_example_30deg{};

/// additive.example: the same q and k plus the 2-d sinusoid; the dots at
/// (2, 5) and (7, 10).
struct additive_example_t {
  const char* dot_2_5 = "-0.040";
  const char* dot_7_10 = "0.123";
};
inline constexpr additive_example_t additive_example{};

}  // namespace pv::claims::printed_numbers
