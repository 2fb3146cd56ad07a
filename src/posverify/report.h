// The claims report: one record per claim of CLAIMS.md and per property,
// written as claims.json (machines) and claims.md (people).
#pragma once

#include "json.h"
#include "markdown.h"  // markdown_cell, md::
#include "verdict.h"

#include <optional>
#include <string>
#include <vector>

namespace pv {

struct claim_result {
  std::string id;
  std::string section;   ///< chapter section, for grouping in claims.md
  std::string checked;   ///< what was computed, in one sentence
  json values = json::object();   ///< computed values under CLAIMS.md's names
  json printed = json::object();  ///< the chapter's own roundings, same names
  verdict result = verdict::fails;
  std::optional<std::string> qualification;  ///< stated when holds-qualified / not-checkable
  /// The qualification in one sentence, for the report's opening ("at a
  /// glance"); written to claims.json as "summary" only when set.
  std::optional<std::string> summary;
  json extra = json::object();  ///< further fields (proofs, enclosures), merged into the record
};

struct property_result {
  std::string id;
  std::string law;        ///< the law, in one sentence
  std::string tolerance;  ///< the rule the comparison used, and why
  pv::verdict verdict = pv::verdict::not_run;  ///< passed | failed | gave_up | error | not_reproduced
  int cases = 0;          ///< successful cases run
  std::string seed;       ///< decimal seed of this property's run
  std::optional<std::string> counterexample;  ///< lossless, when failed
  std::optional<std::string> replay;          ///< a command that replays the case
  json extra = json::object();
};

struct report {
  std::string tool = "posverify";
  std::string version;
  unsigned precision_bits = 0;
  std::string seed;
  std::vector<claim_result> claims;
  std::vector<property_result> properties;
};

json to_json(const report& r);

std::string to_markdown(const report& r);

/// Writes `content` to `path` atomically: a temporary file in the same
/// folder, flushed and closed, then renamed over `path`. Throws
/// std::runtime_error naming the file on any failure, leaving `path` as it was.
void write_file_atomic(const std::string& path, const std::string& content);

/// Writes several files (path, content) so that they change together: every
/// temporary file is written and fsync'ed first, and only then are they all
/// renamed. A failed write (full disk, ...) removes the temporary files and
/// leaves every old file as it was; throws std::runtime_error naming the file.
void write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files);

/// Creates the output folder `dir` and its parents if missing. Race-free: a
/// folder created by another run at the same moment is fine. Throws
/// std::runtime_error "<flag>: ..." when it cannot be created or is not a folder.
void make_out_dir(const std::string& dir, const std::string& flag);

}  // namespace pv
