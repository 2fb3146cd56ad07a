// panel.json and panel.md: the record of `posverify check --panel`
// (mutation/panel.h), a table per member of each law's worst error/tolerance.
#pragma once

#include "core/json.h"

#include <string>

namespace pv::reports {

/// The Markdown of a panel record.
std::string panel_markdown(const json& panel);

/// Writes out_dir/panel.json and panel.md together (core/files.h) and says so on stdout.
void write_panel_report(const json& panel, const std::string& out_dir);

}  // namespace pv::reports
