// The Markdown of a merged check report (posverify merge): the run's outcome
// rebuilt from the JSON (check.cpp's law_json and report_json, read back)
// and written by the run's own report_md, so that shards merged give the
// single run's Markdown byte for byte.
#include "reports/check_report.h"
#include "core/json_read.h"
#include "numerics/scalar.h"

#include <set>
#include <stdexcept>

namespace pv::reports {

using namespace pv::blackbox;  // the records this file writes
namespace {

const json& need(const json& o, const char* key) { return json_read::need(o, key, "check"); }
using json_read::text;

law_result law_of_json(const json& l) {
  static const std::set<std::string> known = {"id", "law", "tolerance", "verdict", "cases", "seed",
                                              "counterexample", "replay", "finding", "base_id", "dtype",
                                              "config", "unsupported_cases", "worst"};
  law_result r;
  r.id = text(l, "id");
  r.law = text(l, "law");
  r.tolerance = text(l, "tolerance");
  r.verdict = json_read::verdict_of(l, "the check report: law " + r.id);
  r.cases = int(need(l, "cases").as_integer());
  r.counterexample = text(l, "counterexample");
  r.replay = text(l, "replay");
  r.finding = text(l, "finding");
  r.base_id = text(l, "base_id");
  r.dtype = text(l, "dtype");
  r.config = text(l, "config");
  r.unsupported = int(need(l, "unsupported_cases").as_integer());
  const json& w = need(l, "worst");
  if (!w.is_null()) {
    r.has_worst = true;
    r.worst_error = ref::parse(number_text(need(w, "error")));
    r.worst_bound = ref::parse(number_text(need(w, "bound")));
    r.worst_where = text(w, "where");
    r.worst_replay = text(w, "replay");
    r.max_error = ref::parse(number_text(need(w, "max_error")));
    r.max_error_bound = ref::parse(number_text(need(w, "max_error_bound")));
  }
  for (const auto& [k, v] : l.items())
    if (!known.count(k)) r.extra.set(k, v);
  return r;
}

}  // namespace

std::string markdown_of_json(const json& j) {
  check_run cx;
  cx.seed = json_read::seed_of(j, "the check report");
  const json& opt = need(j, "options");
  cx.cases = int(need(opt, "cases").as_integer());
  cx.max_position = std::stod(number_text(need(opt, "max_position")));
  cx.ro.timeout_ms = int(need(opt, "timeout_ms").as_integer());
  cx.ro.memory_limit = std::uint64_t(need(opt, "memory_limit_bytes").as_integer());
  cx.min_cases = int(need(opt, "min_cases").as_integer());
  const json& impl = need(j, "implementation");
  run_output o;
  o.lib.name = text(impl, "name");
  o.lib.given = text(impl, "path");
  o.lib.has_attention = need(impl, "attention").as_bool();
  o.lib.has_rope = need(impl, "rope").as_bool();
  o.lib.has_sinusoid = need(impl, "sinusoid").as_bool();
  for (const auto& kv : need(j, "laws").items()) o.laws.push_back(law_of_json(kv.second));
  o.sweep = need(j, "sweep");
  o.diagnosis = need(j, "diagnosis");
  return report_md(cx, o, need(j, "regressions"), "");
}

}  // namespace pv::reports
