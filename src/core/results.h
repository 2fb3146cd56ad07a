// The result records of the judges that verify the chapter: one per claim of
// CLAIMS.md (claims/) and one per property (properties/), and the run that
// holds them. The writers of claims.json and claims.md are in
// reports/claims_report.h.
#pragma once

#include "core/json.h"
#include "core/verdict.h"

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

/// A run of `posverify verify`: every claim and property.
struct report {
  std::string tool = "posverify";
  std::string version;
  std::optional<std::string> build;  ///< the posverify that ran it (reports/build_line.h); unset in a report written before it was recorded
  unsigned precision_bits = 0;
  std::string seed;
  std::vector<claim_result> claims;
  std::vector<property_result> properties;
};

}  // namespace pv
