// The panel of correct implementations (`posverify check --panel`,
// plugins/panel/, docs/check.md): every law must pass on every member, at
// every seed and every position range; the record gives each law's worst
// error/tolerance ratio across the panel (how close to a false alarm the
// rules run; the target is at most 0.5).
#pragma once

#include "blackbox/law_run.h"
#include "core/json.h"

#include <string>
#include <vector>

namespace pv::mutation {

/// The position ranges a member runs at: every one of `max_positions` for a
/// library with rope() or sinusoid(), the first alone for one without (no
/// other law reads positions: a second range would run the same cases again).
std::vector<double> position_ranges(const sandbox::impl_info& lib, const std::vector<double>& max_positions);

/// The library of a --panel entry LIB.so or LIB.so@CLASS.
std::string member_library(const std::string& given);

/// Runs every law of each member of `libs` (LIB.so, or LIB.so@CLASS for a
/// member declaring an accuracy class) at `seeds` seeds from cx.seed and at
/// each of its position_ranges; a line per member on stdout. Throws load_error
/// for a member that cannot be loaded, usage_error for a bad @CLASS.
json run_panel(blackbox::check_run& cx, const std::vector<std::string>& libs, int seeds,
               const std::vector<double>& max_positions);

/// The row of one member of run_panel's record (nothing printed); cx's seed
/// is left as given. Throws as run_panel does.
json panel_member(blackbox::check_run& cx, const std::string& given, int seeds,
                  const std::vector<double>& max_positions);

/// One member's row from the rows of its parts, each panel_member's for a
/// run of consecutive seeds at one position range, given in run_panel's order
/// (position range, then seed): the row panel_member gives for all of them.
json join_member_parts(const std::vector<json>& parts);

/// run_panel's lines for a member's row: passed, or each false alarm.
void print_panel_member(const json& member);

/// The record of members, in the order given (run_panel's result when each
/// row is panel_member's).
json panel_record(const blackbox::check_run& cx, int seeds, const std::vector<double>& max_positions,
                  const std::vector<json>& members);

/// No law failed on any member.
bool no_false_alarm(const json& panel);

}  // namespace pv::mutation
