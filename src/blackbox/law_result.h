// The outcome of one black-box law on one dtype (and RoPE configuration): its
// verdict, the cases run and declined, the finding and lossless
// counterexample of a failure, and the worst error against its tolerance;
// and its fields as the check report writes them (law_fields(): the JSON
// writer, the reader of posverify merge and of check --baseline, and the
// keys they know, core/record_fields.h).
#pragma once

#include "core/input.h"
#include "core/json.h"
#include "core/record_fields.h"
#include "core/verdict.h"
#include "reference/mp.h"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

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
  long unit = -1;         ///< the unit it belongs to (core/shard.h); not written
  std::uint64_t seed = 0;  ///< the run's seed (each case is drawn from it and the law's id)
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
  bool diagnose = false;  ///< not written
  /// The declarations (blackbox/declines.h) of the calls the library
  /// declined, with their counts, and of those it ran; not written.
  std::map<std::string, int> declined;
  std::set<std::string> ran;
  /// The accuracy classes its failure's error is consistent with (the
  /// diagnosis of attention.reference), in order; advised only when every law
  /// of the operation passes under one of them (run.cpp); not written.
  std::vector<std::string> advise;
  json extra = json::object();  ///< further fields (shapes, diagnosis, ...), written after the table's
};

namespace law_json_fields {

/// An hp figure, written with all its digits. Read back from a JSON number,
/// or from the string that json::number keeps for "inf" or "nan".
inline fields::field<law_result> figure(const char* name, hp law_result::*m) {
  return {name, [m](const law_result& r) -> std::optional<json> { return json::number(ref::to_decimal(r.*m)); },
          [m, name](law_result& r, const json& v, const std::string& where) {
            if (v.type() == json::kind::string) {
              try {
                r.*m = ref::parse(v.as_string());
                return;
              } catch (const std::exception&) {
              }
            }
            fields::expect(v, json::kind::number, "a number", where, name);
            r.*m = ref::parse(number_text(v));
          }};
}

/// A string of a failed law only (null otherwise).
inline fields::field<law_result> when_failed(const char* name, std::string law_result::*m) {
  auto f = fields::text_or_null(name, m);
  f.write = [m](const law_result& r) -> std::optional<json> {
    return r.verdict == verdict::failed ? json::string(r.*m) : json();
  };
  return f;
}

/// The fields of the worst case, the object "worst" of a law's record.
inline const fields::table<law_result>& worst() {
  static const fields::table<law_result> t({
      figure("error", &law_result::worst_error),
      figure("bound", &law_result::worst_bound),
      {"ratio",  // derived from error and bound: written, not read back
       [](const law_result& r) -> std::optional<json> {
         return json::number(r.worst_bound > 0 ? ref::to_decimal(hp(r.worst_error / r.worst_bound), 6)
                                               : std::string(r.worst_error > 0 ? "1e300" : "0"));
       },
       nullptr},
      fields::text("where", &law_result::worst_where),
      fields::text("replay", &law_result::worst_replay),
      figure("max_error", &law_result::max_error),
      figure("max_error_bound", &law_result::max_error_bound),
  });
  return t;
}

}  // namespace law_json_fields

/// A law's record in the check report ("laws" of <name>.json), field by
/// field in the order written; its `extra` follows.
inline const fields::table<law_result>& law_fields() {
  using namespace law_json_fields;
  using R = law_result;
  static const fields::table<R> t(
      {
          fields::text("id", &R::id),
          fields::text("law", &R::law),
          fields::text("tolerance", &R::tolerance),
          fields::verdict_field("verdict", &R::verdict),
          fields::whole("cases", &R::cases),
          {"seed", [](const R& r) -> std::optional<json> { return json::string(std::to_string(r.seed)); },
           [](R& r, const json& v, const std::string& where) {
             fields::expect(v, json::kind::string, "a string", where, "seed");
             r.seed = pv::parse_u64<std::runtime_error>(fields::at(where, "seed"), v.as_string(), 0, UINT64_MAX);
           }},
          when_failed("counterexample", &R::counterexample),
          when_failed("replay", &R::replay),
          fields::text_or_null("finding", &R::finding),
          fields::text("base_id", &R::base_id),
          fields::text("dtype", &R::dtype),
          fields::text_or_null("config", &R::config),
          fields::whole("unsupported_cases", &R::unsupported),
          fields::nested("worst", &R::has_worst, &worst),
      },
      &R::extra);
  return t;
}

/// Lazily builds the lossless description of a case (for failure reports).
using describer = std::function<std::string()>;

}  // namespace pv::blackbox
