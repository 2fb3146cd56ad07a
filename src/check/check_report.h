// The outcome of one `check` run and its Markdown report, shared by the run
// (check.cpp) and by `posverify merge`, which rebuilds the run's outcome from
// the JSON of its shards (posverify/shard.h) and writes the same Markdown.
#pragma once

#include "check/law.h"
#include "posverify/json.h"

#include <string>
#include <vector>

namespace pv::check {

struct run_output {
  impl_info lib;
  std::vector<law_result> laws;
  json sweep = json::array(), diagnosis = json::array();
  double seconds = 0;
  std::vector<std::string> all_laws;  ///< base ids of every law of the library
  long units = 0;                     ///< units of the whole run (posverify/shard.h)
  std::vector<long> sweep_units, diagnosis_units;  ///< the unit of each sweep and diagnosis entry
};

/// The Markdown report of a run; `baseline` names the baseline compared
/// with ("" for none).
std::string report_md(const context& cx, const run_output& o, const json& regressions,
                      const std::string& baseline);

/// The JSON report of a run (with a "shard" record when cx shards).
json report_json(const context& cx, const run_output& o, const json& regressions);

/// The Markdown of a check report rebuilt from its JSON (a merged report of
/// shards): the same text report_md writes for the run itself.
std::string markdown_of_json(const json& report);

}  // namespace pv::check
