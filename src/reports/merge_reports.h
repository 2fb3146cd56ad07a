// Joining the reports of the shards of one `check` or `verify` run (posverify
// merge) from their texts: each shard read back and checked (every record by
// its field table, nothing contradicting itself: reports/consistency.h), the
// shards joined (core/shard.h) and the single run's summary and Markdown
// rebuilt. The command (cli/merge.cpp) reads the files and writes the result.
#pragma once

#include "core/json.h"

#include <string>
#include <utility>
#include <vector>

namespace pv::reports {

/// The merged run: its JSON report, its Markdown, and whether it holds (exit 0).
struct merged_run {
  json report;
  std::string markdown;
  bool holds = true;
};

/// Merges the shards given as (file name, JSON text); throws
/// std::runtime_error naming the file, the entry and the field of the first
/// problem (text that is not JSON, a bad or contradictory record, shards that
/// are not one run, a unit without its records, a missing shard).
merged_run merge_reports(const std::vector<std::pair<std::string, std::string>>& shards);

}  // namespace pv::reports
