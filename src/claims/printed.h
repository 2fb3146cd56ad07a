// Comparing computed values with the chapter's printed roundings, at the
// printed digits.
#pragma once

#include "numerics/scalar.h"

#include <string>

namespace pv::claims {

/// x rounded to `decimals` places, spelled as the chapter prints numbers:
/// "0.866", "-0.040", "0" (no sign on a value that rounds to zero).
/// Round half away from zero on the exact hp value.
inline std::string fixed(const hp& x, int decimals) {
  hp scale = pow(hp(10), decimals);
  hp r = round(x * scale);  // integral, small for every printed value
  long long n = r.convert_to<long long>();
  bool neg = n < 0;
  unsigned long long a = neg ? static_cast<unsigned long long>(-n) : static_cast<unsigned long long>(n);
  std::string digits = std::to_string(a);
  if (decimals > 0) {
    const std::size_t k = static_cast<std::size_t>(decimals);
    if (digits.size() <= k) digits = std::string(k + 1 - digits.size(), '0') + digits;
    const std::size_t int_len = digits.size() - k;
    digits = digits.substr(0, int_len) + '.' + digits.substr(int_len);
  }
  return (neg ? "-" : "") + digits;
}

/// Decimals of a printed number: "0.866" -> 3, "0" -> 0.
inline int decimals_of(const std::string& printed) {
  auto p = printed.find('.');
  return p == std::string::npos ? 0 : static_cast<int>(printed.size() - p - 1);
}

/// Comparisons of computed values with the chapter's printed roundings, at
/// the printed digits: the value is rounded to as many decimals as the
/// printed number shows, and the two strings must be equal.
class printed_check {
 public:
  /// Records one comparison; returns whether it agrees.
  bool compare(const hp& value, const std::string& printed, const std::string& name) {
    std::string got = fixed(value, decimals_of(printed));
    ++total_;
    if (got == printed) {
      ++agreed_;
      return true;
    }
    mismatches_ += (mismatches_.empty() ? "" : "; ") + name + " = " + ref::to_decimal(value, 10) +
                   " rounds to " + got + ", printed " + printed;
    return false;
  }
  bool all_agree() const { return agreed_ == total_; }
  /// "4 of 4 printed numbers agree at their digits" plus every mismatch.
  std::string summary() const {
    return std::to_string(agreed_) + " of " + std::to_string(total_) +
           " printed numbers agree at their digits" +
           (mismatches_.empty() ? "" : "; disagreeing: " + mismatches_);
  }

 private:
  int agreed_ = 0, total_ = 0;
  std::string mismatches_;
};

}  // namespace pv::claims
