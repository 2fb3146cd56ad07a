// Distances between IEEE numbers in units in the last place, and equality bit
// for bit (sleef's countULP idea: a count of representable values, not a
// relative error).
#pragma once

#include <cstdint>
#include <cstring>  // std::memcpy, std::memcmp
#include <limits>

namespace pv {

namespace detail {
/// The bits of x on a monotone two's-complement scale (sign-magnitude mapped).
template <class I, class F>
I ordered_bits(F x) {
  I i;
  std::memcpy(&i, &x, sizeof x);
  return i < 0 ? static_cast<I>(std::numeric_limits<I>::min() - i) : i;
}
}  // namespace detail

/// Distance in units in the last place between two IEEE numbers of the same
/// type: the number of representable values between them (+0 and -0 are 0
/// apart; `same_bits` tells them apart).
inline std::int64_t ulp_distance(double a, double b) {
  const std::int64_t x = detail::ordered_bits<std::int64_t>(a), y = detail::ordered_bits<std::int64_t>(b);
  return x > y ? x - y : y - x;
}
inline std::int64_t ulp_distance(float a, float b) {
  const std::int64_t x = detail::ordered_bits<std::int32_t>(a), y = detail::ordered_bits<std::int32_t>(b);
  return x > y ? x - y : y - x;
}

/// Bit-for-bit equality of two IEEE numbers.
template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace pv
