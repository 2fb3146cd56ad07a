// Command-line option helpers shared by the posverify commands (verify,
// check, budgets): the usage error, whole-number options and option values.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace pv::cli {

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

/// The reference precision of every command. MPFR's cost grows faster than
/// linearly with it (one property, 200 cases: 0.08 s of CPU at 256 bits, 0.13 s
/// at 1024, 0.81 s at 4096), so 4096 keeps a full run within tens of minutes;
/// a run at 100000 bits did not finish.
inline constexpr u64_option precision_bits_option{"--precision-bits", 64, 4096};

/// The value of option args[i], i.e. args[i + 1] (i moves on to it); throws
/// E "<option> needs a value" when args[i] is the last argument.
template <class E = usage_error>
const std::string& option_value(const std::vector<std::string>& args, std::size_t& i) {
  if (i + 1 >= args.size()) throw E(args[i] + " needs a value");
  return args[++i];
}

}  // namespace pv::cli
