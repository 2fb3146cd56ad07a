// The chapter's printed numbers of the history section, typed once: the claim
// (claims/history.cpp) compares its wavelengths with these; the certificates
// (proofs/chapter_numbers.cpp) certify the same figures.
#pragma once

#include <cstdint>

namespace pv::claims::printed_numbers {

/// sinusoid.wavelengths: the wavelengths run "from 2 pi to 10000 * 2 pi", as
/// multiples of 2 pi, and the same two figures at 3 decimals (the spelling
/// whose rounding interval the certificates test).
struct sinusoid_wavelengths_t {
  std::int64_t first_over_2pi = 1, limit_over_2pi = 10000;
  const char* first = "6.283";
  const char* limit = "62831.853";
};
inline constexpr sinusoid_wavelengths_t sinusoid_wavelengths{};

}  // namespace pv::claims::printed_numbers
