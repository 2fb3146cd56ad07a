// The report of a `check` run: <name>.json, <name>.md and the console lines;
// also written by `posverify merge`, which rebuilds the run's outcome from the
// JSON of its shards (core/shard.h) and writes the same Markdown.
#pragma once

#include "blackbox/run.h"
#include "core/json.h"

#include <string>

namespace pv::reports {

json report_json(const blackbox::check_run& cx, const blackbox::run_output& o, const json& regressions);
std::string report_md(const blackbox::check_run& cx, const blackbox::run_output& o, const json& regressions,
                      const std::string& baseline);
void print_laws(const blackbox::run_output& o);

/// The run a check report records, read back from its JSON (each law by its
/// field table): the library as the report names it, the laws, the sweep and
/// the diagnosis; `cx` gets the run's seed, cases, positions, limits and
/// min_cases. Throws std::runtime_error naming the field of a bad entry.
blackbox::run_output run_of_json(const json& report, blackbox::check_run& cx);

/// The Markdown of a check report rebuilt from its JSON (a merged report of
/// shards): the same text report_md writes for the run itself.
std::string markdown_of_json(const json& report);

}  // namespace pv::reports
