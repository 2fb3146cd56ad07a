// The subcommands of posverify, one file each (src/cli/<command>.cpp); main.cpp
// dispatches. Each parses its own option table (cli/options.h) and throws
// cli::usage_error for bad usage (exit 2).
#pragma once

#include "posverify/report.h"

#include <ostream>
#include <string>
#include <vector>

namespace pv::cli {

int cmd_verify(const std::vector<std::string>& args);
int cmd_replay(const std::vector<std::string>& args);
int cmd_list();
int cmd_merge(const std::vector<std::string>& args);
/// `posverify html`: index.html (or NAME.html of a check report) from JSON reports (cli/html.cpp).
int cmd_html(const std::vector<std::string>& args);
/// reports/index.html of the folder `dir`, from `claims` and the other JSON reports found there.
std::string index_page(const std::string& dir, const json& claims);

/// One property's result line (and its counterexample and replay when it failed).
void print_property(const property_result& r, std::ostream& os);

}  // namespace pv::cli
