// The claims report of `posverify verify`: claims.json (machines) and
// claims.md (people), one record per claim of CLAIMS.md and per property
// (core/results.h).
#pragma once

#include "core/files.h"
#include "core/json.h"
#include "core/results.h"
#include "reports/markdown.h"  // markdown_cell, md::

#include <string>

namespace pv::reports {

json to_json(const report& r);

/// The report read back from its JSON (a merged report of shards); throws
/// std::runtime_error naming `where` (the file), the entry and the field.
report report_of_json(const json& j, const std::string& where);

std::string to_markdown(const report& r);

}  // namespace pv::reports
