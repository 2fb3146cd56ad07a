// Command-line helpers shared by the posverify commands (verify, check,
// budgets): the reference precision option and option values. The usage
// error and whole-number parsing are core/input.h.
#pragma once

#include "core/input.h"
#include "reference/precision_bits.h"

#include <cstddef>
#include <string>
#include <vector>

namespace pv::cli {

/// The reference precision of every command (reference/precision_bits.h).
inline constexpr u64_option precision_bits_option{"--precision-bits", ref::min_precision_bits, ref::max_precision_bits};

/// The value of option args[i], i.e. args[i + 1] (i moves on to it); throws
/// E "<option> needs a value" when args[i] is the last argument.
template <class E = usage_error>
const std::string& option_value(const std::vector<std::string>& args, std::size_t& i) {
  if (i + 1 >= args.size()) throw E(args[i] + " needs a value");
  return args[++i];
}

}  // namespace pv::cli
