// The Markdown of a merged check report (posverify merge): the run's outcome
// rebuilt from the JSON (check.cpp's law_json and report_json, read back)
// and written by the run's own report_md, so that shards merged give the
// single run's Markdown byte for byte.
#include "check/check_report.h"
#include "posverify/scalar.h"

#include <set>
#include <stdexcept>

namespace pv::check {
namespace {

const json& need(const json& o, const char* key) {
  const json* v = o.find(key);
  if (!v) throw std::runtime_error(std::string("the check report has no \"") + key + "\"");
  return *v;
}

std::string text_of(const json& o, const char* key) {
  const json* v = o.find(key);
  return v && !v->is_null() ? v->as_string() : std::string();
}

law_result law_of_json(const json& l) {
  static const std::set<std::string> known = {"id", "law", "tolerance", "verdict", "cases", "seed",
                                              "counterexample", "replay", "finding", "base_id", "dtype",
                                              "config", "unsupported_cases", "worst"};
  law_result r;
  r.id = text_of(l, "id");
  r.law = text_of(l, "law");
  r.tolerance = text_of(l, "tolerance");
  r.verdict = text_of(l, "verdict");
  r.cases = int(need(l, "cases").as_integer());
  r.counterexample = text_of(l, "counterexample");
  r.replay = text_of(l, "replay");
  r.finding = text_of(l, "finding");
  r.base_id = text_of(l, "base_id");
  r.dtype = text_of(l, "dtype");
  r.config = text_of(l, "config");
  r.unsupported = int(need(l, "unsupported_cases").as_integer());
  const json& w = need(l, "worst");
  if (!w.is_null()) {
    r.has_worst = true;
    r.worst_error = ref::parse(number_text(need(w, "error")));
    r.worst_bound = ref::parse(number_text(need(w, "bound")));
    r.worst_where = text_of(w, "where");
    r.worst_replay = text_of(w, "replay");
    r.max_error = ref::parse(number_text(need(w, "max_error")));
    r.max_error_bound = ref::parse(number_text(need(w, "max_error_bound")));
  }
  for (const auto& [k, v] : l.items())
    if (!known.count(k)) r.extra.set(k, v);
  return r;
}

}  // namespace

std::string markdown_of_json(const json& j) {
  context cx;
  cx.seed = std::stoull(need(j, "seed").as_string());
  const json& opt = need(j, "options");
  cx.cases = int(need(opt, "cases").as_integer());
  cx.max_position = std::stod(number_text(need(opt, "max_position")));
  cx.ro.timeout_ms = int(need(opt, "timeout_ms").as_integer());
  cx.ro.memory_limit = std::uint64_t(need(opt, "memory_limit_bytes").as_integer());
  cx.min_cases = int(need(opt, "min_cases").as_integer());
  const json& impl = need(j, "implementation");
  run_output o;
  o.lib.name = text_of(impl, "name");
  o.lib.given = text_of(impl, "path");
  o.lib.has_attention = need(impl, "attention").as_bool();
  o.lib.has_rope = need(impl, "rope").as_bool();
  o.lib.has_sinusoid = need(impl, "sinusoid").as_bool();
  for (const auto& kv : need(j, "laws").items()) o.laws.push_back(law_of_json(kv.second));
  o.sweep = need(j, "sweep");
  o.diagnosis = need(j, "diagnosis");
  return report_md(cx, o, need(j, "regressions"), "");
}

}  // namespace pv::check
