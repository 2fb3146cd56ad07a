// The options of `posverify verify`, parsed apart from running them (so that
// the fuzzer of fuzz/cli_fuzz.cpp reaches the same code as the command).
#pragma once

#include "cli/args.h"
#include "posverify/scalar.h"
#include "properties/runner.h"

#include <string>
#include <vector>

namespace pv::cli {

struct verify_args {
  std::string out_dir = "reports";
  prop::run_options run;
  std::string only;  ///< --property: run this one, write nothing
  unsigned precision_bits = ref::default_precision_bits;
  bool fault_matrix = false;  ///< --fault-matrix: every claim and property under every planted fault
  bool cases_given = false;
};

/// Parses the arguments after "verify"; throws usage_error naming the option
/// and the value.
inline verify_args parse_verify_args(const std::vector<std::string>& args) {
  verify_args v;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&] { return option_value(args, i); };
    if (a == "--out") v.out_dir = value();
    else if (a == "--cases") v.run.cases = static_cast<int>(parse_u64(a, value(), 1, 1000000)), v.cases_given = true;
    else if (a == "--fault-matrix") v.fault_matrix = true;
    else if (a == "--seed") v.run.seed = parse_u64(a, value(), 0, UINT64_MAX);
    else if (a == "--property") v.only = value();
    else if (a == "--precision-bits") v.precision_bits = static_cast<unsigned>(precision_bits_option.parse(value()));
    else throw usage_error("verify: unknown option '" + a + "'");
  }
  return v;
}

}  // namespace pv::cli
