// Bad input from the user, on a command line or in a file it names: the
// error every command turns into a message and exit 2, and the whole-number
// values it checks (naming the option or field, and the value).
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace pv {

/// Bad usage: the command prints the message and its usage text, exits 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The whole number v of option `flag`, which must lie in [lo, hi]; throws E
/// naming the flag and the value otherwise.
template <class E = usage_error>
std::uint64_t parse_u64(const std::string& flag, const std::string& v, std::uint64_t lo,
                        std::uint64_t hi) {
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
    throw E(flag + ": expected a whole number, got '" + v + "'");
  errno = 0;
  const unsigned long long x = std::strtoull(v.c_str(), nullptr, 10);
  if (errno == ERANGE || x < lo || x > hi)
    throw E(flag + ": " + v + " is out of range [" + std::to_string(lo) + ", " +
            std::to_string(hi) + "]");
  return x;
}

/// A whole-number option and its range; `parse` is parse_u64 with them.
struct u64_option {
  const char* flag;
  std::uint64_t lo, hi;
  template <class E = usage_error>
  std::uint64_t parse(const std::string& v) const { return parse_u64<E>(flag, v, lo, hi); }
};

}  // namespace pv
