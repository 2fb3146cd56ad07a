// The one seeded generator of every replayable case: splitmix64 (Steele,
// Lea and Flood 2014; the constants of Vigna's public-domain version), an
// FNV-1a hash to derive a stream from a name, and a Fisher-Yates shuffle
// drawing from it. Properties (runner.cpp), check laws (check/law.h), error
// budgets and the bitwise study all draw from this type, so a case is named
// by its seed alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>  // std::swap
#include <vector>

namespace pv {

/// splitmix64: a small, well-mixed, deterministic generator. `s` is the
/// whole state; `seeded{x}.next()` is the splitmix64 finaliser of x + golden.
struct seeded {
  std::uint64_t s;
  explicit seeded(std::uint64_t seed) : s(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }  ///< [0, 1)
  double real(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /// An integer in [lo, hi] (modulo draw; the bias is below 2^-40 for the
  /// small ranges used here, and the streams are part of the reports).
  long range(long lo, long hi) { return lo + long(next() % std::uint64_t(hi - lo + 1)); }
  std::size_t in(std::size_t lo, std::size_t hi) { return lo + next() % (hi - lo + 1); }
};

/// One step of splitmix64 on an external state (the same stream as `seeded`).
inline std::uint64_t splitmix64(std::uint64_t& state) {
  seeded g(state);
  const auto z = g.next();
  state = g.s;
  return z;
}

/// FNV-1a (64 bit) of a name: derives one stream per law from one seed.
inline std::uint64_t fnv1a(std::string_view id) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : id) h = (h ^ c) * 1099511628211ull;
  return h;
}

/// Fisher-Yates: for j = n..2, swaps element j - 1 with element draw(j), an
/// index in [0, j). Every shuffle of the project goes through here; only the
/// source of the draws differs (seeded, a fixed LCG, RapidCheck).
template <class Draw>
std::vector<std::size_t> fisher_yates(std::size_t n, Draw&& draw) {
  std::vector<std::size_t> p(n);
  for (std::size_t j = 0; j < n; ++j) p[j] = j;
  for (std::size_t j = n; j > 1; --j) std::swap(p[j - 1], p[static_cast<std::size_t>(draw(j))]);
  return p;
}

/// A uniformly random permutation of 0..n-1 drawing from g.
inline std::vector<std::size_t> random_permutation(seeded& g, std::size_t n) {
  return fisher_yates(n, [&](std::size_t j) { return g.range(0, long(j) - 1); });
}

}  // namespace pv
