// The run of `posverify check`: every black-box law of a library, on every
// dtype and configuration it supports, and what the run gives (its laws, the
// RoPE position sweep, the diagnoses). The report is reports/check_report.h,
// the baseline comparison blackbox/baseline.h.
#pragma once

#include "blackbox/law_run.h"
#include "core/json.h"

#include <string>
#include <vector>

namespace pv::blackbox {

/// What one run of every law on one library gives.
struct run_output {
  impl_info lib;
  std::vector<law_result> laws;
  json sweep = json::array(), diagnosis = json::array();
  double seconds = 0;
  std::vector<std::string> all_laws;  ///< base ids of every law of the library
  long units = 0;                     ///< units of the whole run (core/shard.h)
  std::vector<long> sweep_units, diagnosis_units;  ///< the unit of each sweep and diagnosis entry
  std::string build;  ///< the posverify that ran it (reports/build_line.h; set by the caller, read back by merge)
};

/// Makes the output folder (named as --out in errors).
void ensure_dir(const std::string& dir);

/// Runs every law of cx.lib on every dtype it supports: float32 and float64,
/// then (ABI version 2 and later) the float32 laws again with float16 and
/// bfloat16 on the wire.
run_output run_laws(check_run& cx);

}  // namespace pv::blackbox
