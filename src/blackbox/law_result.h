// The outcome of one black-box law on one dtype (and RoPE configuration): its
// verdict, the cases run and declined, the finding and lossless
// counterexample of a failure, and the worst error against its tolerance.
#pragma once

#include "core/json.h"
#include "core/verdict.h"
#include "reference/mp.h"

#include <functional>
#include <string>

namespace pv::blackbox {

/// The outcome of one law on one dtype (and RoPE configuration).
struct law_result {
  std::string id;         ///< e.g. "rope.reference[text-halves-64/float32]"
  std::string base_id;    ///< "rope.reference"
  std::string former_id;  ///< the base id before a rename ("rope.flux.per_axis_shift"), or ""; not written
  std::string law;        ///< the law in one sentence
  std::string tolerance;  ///< the rule and where it comes from
  std::string dtype;      ///< float32 | float64
  std::string config;     ///< RoPE configuration or ""
  long unit = -1;         ///< the unit it belongs to (posverify/shard.h)
  pv::verdict verdict = pv::verdict::not_run;  ///< passed | failed | insufficient | unsupported | not_run
  int cases = 0;          ///< cases evaluated (passed cases + the failing one)
  int unsupported = 0;    ///< cases the library declined (returned 1)
  std::string finding;    ///< when failed or insufficient: what went wrong
  std::string counterexample;  ///< lossless inputs of the failing case
  std::string replay;
  bool has_worst = false;
  hp worst_error = 0, worst_bound = 0;
  std::string worst_where;  ///< case and entry of the worst error/bound ratio
  std::string worst_replay;  ///< the command that reruns the worst case
  hp max_error = 0, max_error_bound = 0;  ///< the largest |difference| and its tolerance
  /// Part of the law's definition: a failure runs the black-box diagnosis of
  /// its configuration (diagnose.h), whose message is attached to the failed law.
  bool diagnose = false;
  json extra = json::object();
};

/// Lazily builds the lossless description of a case (for failure reports).
using describer = std::function<std::string()>;

}  // namespace pv::blackbox
