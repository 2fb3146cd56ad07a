// Command-line helpers shared by the posverify commands (verify, check,
// budgets): the reference precision option and option values. The usage
// error and whole-number parsing are core/input.h.
#pragma once

#include "core/input.h"

#include <cstddef>
#include <string>
#include <vector>

namespace pv::cli {

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
