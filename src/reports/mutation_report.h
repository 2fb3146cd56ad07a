// mutation.json and mutation.md: the record of `posverify check --mutation`
// (mutation/mutation.h), and the table of which law caught which mutant.
#pragma once

#include "core/json.h"

#include <string>

namespace pv::reports {

/// The Markdown of a mutation record.
std::string mutation_markdown(const json& mutation);

/// Writes out_dir/mutation.json and mutation.md together (core/files.h) and
/// says so on stdout.
void write_mutation_report(const json& mutation, const std::string& out_dir);

}  // namespace pv::reports
