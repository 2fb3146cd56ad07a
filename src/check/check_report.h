// The report of a `check` run, shared by the run (check.cpp) and by
// `posverify merge`, which rebuilds the run's outcome from the JSON of its
// shards (posverify/shard.h) and writes the same Markdown. run_output,
// report_json and report_md are declared in check_run.h.
#pragma once

#include "check/check_run.h"
#include "posverify/json.h"

#include <string>

namespace pv::check {

/// The Markdown of a check report rebuilt from its JSON (a merged report of
/// shards): the same text report_md writes for the run itself.
std::string markdown_of_json(const json& report);

}  // namespace pv::check
