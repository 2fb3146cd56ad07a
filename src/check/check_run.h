// The pieces of `posverify check` behind its command line (src/check/check.cpp):
// the run (check_run.cpp), the report (check_report.cpp), the mutation score
// (mutation.cpp) and the panel (panel.cpp). Baseline comparison: baseline.h.
#pragma once

#include "check/law.h"
#include "posverify/json.h"

#include <string>
#include <vector>

namespace pv::check {

/// What one run of every law on one library gives.
struct run_output {
  impl_info lib;
  std::vector<law_result> laws;
  json sweep = json::array(), diagnosis = json::array();
  double seconds = 0;
  std::vector<std::string> all_laws;  ///< base ids of every law of the library
  long units = 0;                     ///< units of the whole run (posverify/shard.h)
  std::vector<long> sweep_units, diagnosis_units;  ///< the unit of each sweep and diagnosis entry
};

/// Makes the output folder (named as --out in errors).
void ensure_dir(const std::string& dir);

/// Runs every law of cx.lib on every dtype it supports.
void run_laws(const context& cx, run_output& o);
run_output run_all(context& cx);

json report_json(const context& cx, const run_output& o, const json& regressions);
std::string report_md(const context& cx, const run_output& o, const json& regressions,
                      const std::string& baseline);
void print_laws(const run_output& o);

int run_mutation(context& cx, const std::vector<std::string>& libs, const std::string& out_dir);

/// The panel of correct implementations (panel.cpp).
int run_panel(context& cx, const std::vector<std::string>& libs, const std::string& out_dir, int seeds,
              const std::vector<double>& max_positions);

}  // namespace pv::check
