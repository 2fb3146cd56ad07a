// The chapter's printed numbers of problem 5, typed once: the claims
// (claims/problem5.cpp) compare their computed values with these and print
// them under `printed` (p5.with-encoding also adds the rounded position
// vectors to the tokens); the certificates (proofs/chapter_numbers.cpp)
// certify the same strings and add the same rounded vectors.
#pragma once

#include <array>
#include <cstddef>

namespace pv::claims::printed_numbers {

/// A printed 2-vector, e.g. ("0.802", "0.599").
using printed_pair = std::array<const char*, 2>;

/// p5.no-encoding: the outputs of a, b, c in the order [a, b, c]. The chapter
/// gives the order [c, a, b] the same vectors, only reordered: cab_out().
struct p5_no_encoding_t {
  std::array<printed_pair, 3> abc_out = {{{"0.802", "0.599"}, {"0.599", "0.802"}, {"0.752", "0.752"}}};
  /// Rows of [c, a, b]: abc_out's rows 2, 0, 1.
  std::array<printed_pair, 3> cab_out() const { return {abc_out[2], abc_out[0], abc_out[1]}; }
};
inline constexpr p5_no_encoding_t p5_no_encoding{};

/// p5.with-encoding: the rounded sinusoid (sin m, cos m) at positions 0, 1, 2,
/// and what c receives at position 2 of [a, b, c] and at position 0 of [c, a, b].
struct p5_with_encoding_t {
  std::array<printed_pair, 3> pe = {{{"0", "1"}, {"0.841", "0.540"}, {"0.909", "-0.416"}}};
  printed_pair c_at_2 = {"1.502", "0.867"};
  printed_pair c_at_0 = {"1.134", "1.620"};
};
inline constexpr p5_with_encoding_t p5_with_encoding{};

}  // namespace pv::claims::printed_numbers
