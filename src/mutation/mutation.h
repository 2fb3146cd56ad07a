// The mutation score of the black-box laws (`posverify check --mutation`):
// every law runs on every deliberately wrong plugin (plugins/mutants/); a
// mutant is caught when at least one law fails on it.
#pragma once

#include "blackbox/law_run.h"
#include "core/json.h"

#include <string>
#include <vector>

namespace pv::mutation {

/// Runs every law of each library in `libs` (a line per mutant on stdout) and
/// returns the record that reports/mutation_report.h writes: per mutant the
/// first law that failed, after how many cases, its finding, replay and
/// diagnosis, and every law that failed.
json run_mutation(blackbox::check_run& cx, const std::vector<std::string>& libs);

/// The row of one library of run_mutation's record (nothing printed).
json mutation_row(blackbox::check_run& cx, const std::string& lib);

/// run_mutation's line for a row: caught (by which law, after how many cases,
/// the finding), survived, or not loaded ("??").
void print_mutation_row(const json& row);

/// The record of rows, one per library given, in their order (run_mutation's
/// result when each row is mutation_row's).
json mutation_record(const blackbox::check_run& cx, const std::vector<json>& rows);

/// Every mutant was caught (and there was at least one).
bool all_caught(const json& mutation);

}  // namespace pv::mutation
