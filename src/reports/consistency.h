// What a report read back cannot say at once (posverify merge reads every
// report through these before it joins them): a law whose verdict disagrees
// with its own finding, counterexample, replay, cases, worst case or
// diagnosis; a summary that does not count the laws listed; a RoPE diagnosis
// without a failed law of its configuration; a law listed twice, of another
// seed, or outside the run's --law; a property whose verdict disagrees with
// its counterexample and replay. Each rule is what the writer guarantees
// (blackbox/law_run.cpp's finish() and fail(), reports/check_report.cpp's
// report_json, properties/runner.cpp), so a report as written always passes
// and one edited by hand (a failure relabelled "passed") does not.
#pragma once

#include "core/json.h"

#include <string>

namespace pv::reports {

/// Throws std::runtime_error "<file>: laws[i] (<id>).<field>: ... : the report
/// contradicts itself" (or "<file>: summary.<verdict>", "<file>:
/// diagnosis[i].config") at the first contradiction of a check report.
void check_consistent_check_report(const json& report, const std::string& file);

/// The same for the properties of a verify report (claims.json).
void check_consistent_verify_report(const json& report, const std::string& file);

}  // namespace pv::reports
