// Fixed deterministic inputs of the claims: simple integer formulas, exact
// in float, double and hp, independent of the run's seed.
#pragma once

#include "numerics/matrix.h"
#include "numerics/permutation.h"
#include "core/seeded.h"

#include <cstdint>
#include <utility>

namespace pv::claims {

/// Fixed deterministic token entries: multiples of 1/4 in [-1.5, 1.5] from a
/// simple integer formula, exact in float, double and hp alike. `salt`
/// selects a different but equally fixed pattern.
inline double fixed_entry(std::size_t i, std::size_t j, std::size_t salt = 0) {
  long v = static_cast<long>((5 * i + 3 * j + 7 * salt + 2 * i * j + 1) % 13) - 6;
  return static_cast<double>(v) / 4.0;
}

/// An n x d matrix of fixed_entry values.
inline matrix<double> fixed_tokens(std::size_t n, std::size_t d, std::size_t salt = 0) {
  matrix<double> X(n, d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) X(i, j) = fixed_entry(i, j, salt);
  return X;
}

/// The six cells of perm.six-cells, its bitwise study and its exhaustive
/// proof (one input for all three, so their ulp counts agree): a one-row
/// picture of 6 cells with 4 channels, six_cell_formula in double (one
/// rounding, the division), cells i = 0..5, channels c = 0..3.
inline constexpr const char* six_cell_formula = "x_ic = ((5i + 3c) mod 7)/4 - 3/4 + 1/(i + c + 3)";
inline matrix<double> six_cell_input() {
  matrix<double> X(6, 4);
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t c = 0; c < 4; ++c)
      X(i, c) = static_cast<double>((5 * i + 3 * c) % 7) / 4.0 - 0.75 + 1.0 / static_cast<double>(i + c + 3);
  return X;
}

/// A fixed entry without short periods, for large inputs (thousands of
/// tokens): the top byte of splitmix64 of (i, j, salt) as a signed multiple
/// of 1/64 in [-2, 2), exact in float, double and hp.
inline double hashed_entry(std::size_t i, std::size_t j, std::size_t salt = 0) {
  std::uint64_t z = static_cast<std::uint64_t>(i) * 1000003u + static_cast<std::uint64_t>(j) * 7919u +
                    static_cast<std::uint64_t>(salt) * 104729u + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(static_cast<int>(z >> 56) - 128) / 64.0;
}

/// An n x d matrix of hashed_entry values.
inline matrix<double> hashed_tokens(std::size_t n, std::size_t d, std::size_t salt = 0) {
  matrix<double> X(n, d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) X(i, j) = hashed_entry(i, j, salt);
  return X;
}

/// A fixed permutation of n rows from a small linear congruential generator
/// with a constant seed (Fisher-Yates), so that the input never changes.
inline permutation fixed_permutation(std::size_t n, std::uint64_t seed = 12345) {
  std::uint64_t s = seed;
  return fisher_yates(n, [&](std::size_t j) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((s >> 33) % j);
  });
}

}  // namespace pv::claims
