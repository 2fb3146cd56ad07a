// The subcommands of posverify, one file each (src/cli/<command>.cpp); main.cpp
// dispatches. Each parses its own option table (cli/options.h) and throws
// pv::usage_error for bad usage (exit 2).
#pragma once

#include "core/results.h"

#include <ostream>
#include <string>
#include <vector>

namespace pv::cli {

/// `posverify check ...` (arguments after "check"): the black-box laws on a
/// user's implementation (cli/check.cpp). Returns 0 every law holds, 1 a law
/// fails or regressed (or a mutant survived), 2 bad usage or a library that
/// cannot be loaded.
int cmd_check(const std::vector<std::string>& args);
/// `posverify budgets [--out DIR] [--seed S] [--cases N] [--case I]`: writes
/// DIR/error_budgets.md and .json atomically (with --case: reruns case I of
/// every row, prints it, writes nothing); exit 0 if every observed error is
/// within its bound, 1 otherwise; throws std::invalid_argument on bad usage.
int cmd_budgets(const std::vector<std::string>& args);
int cmd_verify(const std::vector<std::string>& args);
int cmd_replay(const std::vector<std::string>& args);
int cmd_list();
/// `posverify --version` (-V): cli/version.cpp; version_text() is its one line.
int cmd_version();
std::string version_text();
int cmd_merge(const std::vector<std::string>& args);
/// `posverify html`: index.html (or NAME.html of a check report) from JSON reports (cli/html.cpp).
int cmd_html(const std::vector<std::string>& args);
/// reports/index.html of the folder `dir`, from `claims` and the other JSON reports found there.
std::string index_page(const std::string& dir, const json& claims);

/// One property's result line (and its counterexample and replay when it failed).
void print_property(const property_result& r, std::ostream& os);

}  // namespace pv::cli
