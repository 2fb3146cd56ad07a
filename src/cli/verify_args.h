// The options of `posverify verify`, parsed apart from running them (so that
// the fuzzer of fuzz/cli_fuzz.cpp reaches the same code as the command).
#pragma once

#include "cli/args.h"
#include "cli/options.h"
#include "numerics/scalar.h"
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
  std::string shard;  ///< --shard K/N (posverify/shard.h)
  bool shard_given = false;
  std::string junit;  ///< --junit FILE: the result as JUnit XML too
};

/// The option table of `posverify verify`, writing into v.
inline option_table verify_options(verify_args& v) {
  return {
      {"--out", "DIR", "where the reports go (default reports/)",
       [&](const std::string& x) { v.out_dir = x; }},
      {"--cases", "N", "random cases per property (default 1000)",
       [&](const std::string& x) {
         v.run.cases = static_cast<int>(parse_u64("--cases", x, 1, 1000000));
         v.cases_given = true;
       }},
      {"--seed", "S",
       "seed of the run (default 1); the same seed gives the same claims.json byte for byte",
       [&](const std::string& x) { v.run.seed = parse_u64("--seed", x, 0, UINT64_MAX); }},
      {"--property", "ID", "run one property only, print its result, write nothing",
       [&](const std::string& x) { v.only = x; }},
      {"--precision-bits", "B", "reference precision in bits (default 256, range [64, 4096])",
       [&](const std::string& x) { v.precision_bits = static_cast<unsigned>(precision_bits_option.parse(x)); }},
      {"--fault-matrix", "",
       "run every claim and property under every planted fault (--cases per property, default "
       "100); write fault_matrix.*",
       [&](const std::string&) { v.fault_matrix = true; }},
      {"--shard", "K/N",
       "run shard K of N (K from 1; default $GTEST_SHARD_INDEX + 1 of $GTEST_TOTAL_SHARDS): the "
       "properties and claims split into N parts, joined by posverify merge (docs/scaling.md)",
       [&](const std::string& x) { v.shard = x, v.shard_given = true; }},
      {"--junit", "FILE", "also write the result as JUnit XML (one test case per claim and property)",
       [&](const std::string& x) { v.junit = x; }},
  };
}

/// Parses the arguments after "verify"; throws usage_error naming the option
/// and the value.
inline verify_args parse_verify_args(const std::vector<std::string>& args) {
  verify_args v;
  parse_options("verify", verify_options(v), args);
  return v;
}

}  // namespace pv::cli
