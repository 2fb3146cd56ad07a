// libFuzzer target: command-line option parsing (src/cli/args.h, the option
// tables on CLI11 in src/cli/options.h, src/cli/verify_args.h). The input is
// a list of arguments separated by NUL bytes. Invariants: only
// pv::usage_error, accepted values lie in the ranges the options state, and
// a positional argument never looks like an option.
#include "blackbox/baseline.h"
#include "cli/options.h"
#include "cli/verify_args.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

void check_range(const pv::u64_option& o, const std::string& v) {
  try {
    const std::uint64_t x = o.parse(v);
    if (x < o.lo || x > o.hi) std::abort();
  } catch (const pv::usage_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) args.emplace_back();
    else args.back() += static_cast<char>(data[i]);
  }
  try {
    const auto v = pv::cli::parse_verify_args(args);
    if (v.run.cases < 1 || v.run.cases > 1000000) std::abort();
    if (v.precision_bits < pv::cli::precision_bits_option.lo || v.precision_bits > pv::cli::precision_bits_option.hi)
      std::abort();
  } catch (const pv::usage_error&) {
  }
  try {  // a table with a switch, a ranged option and positionals (as `check --mutation`)
    std::vector<std::string> pos;
    std::uint64_t n = 1;
    pv::cli::parse_options("fuzz",
                           {{"--flag", "", "a switch", [](const std::string&) {}},
                            {"--n", "N", "a number", [&](const std::string& v) { n = pv::parse_u64("--n", v, 1, 9); }}},
                           args, &pos);
    if (n < 1 || n > 9) std::abort();
    for (const auto& p : pos)
      if (!p.empty() && p[0] == '-') std::abort();
  } catch (const pv::usage_error&) {
  }
  for (const auto& a : args)
    for (const auto* o : {&pv::cli::precision_bits_option, &pv::blackbox::cases_option, &pv::blackbox::seed_option,
                          &pv::blackbox::max_position_option})
      check_range(*o, a);
  return 0;
}
