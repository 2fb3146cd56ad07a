// The Markdown of a merged check report (posverify merge): the run's outcome
// rebuilt from the JSON (report_json read back, each law by its field table,
// blackbox/law_result.h) and written by the run's own report_md, so that
// shards merged give the single run's Markdown byte for byte; check --jobs
// reads its workers' merged run back the same way (run_of_json).
#include "reports/check_report.h"
#include "core/json_read.h"
#include "core/record_fields.h"
#include "core/text.h"
#include "numerics/scalar.h"

#include <cmath>
#include <cstdlib>
#include <set>
#include <stdexcept>

namespace pv::reports {

using namespace pv::blackbox;  // the records this file writes
namespace {

const json& need(const json& o, const char* key) { return json_read::need(o, key, "check"); }
using json_read::text;

}  // namespace

run_output run_of_json(const json& j, check_run& cx) {
  cx.seed = json_read::seed_of(j, "the check report");
  const json& opt = need(j, "options");
  cx.cases = int(need(opt, "cases").as_integer());
  const json& mp = need(opt, "max_position");
  const std::string mp_text = number_text(mp);
  char* end = nullptr;
  cx.max_position = std::strtod(mp_text.c_str(), &end);
  if ((mp.type() != json::kind::number && mp.type() != json::kind::integer) || mp_text.empty() ||
      end != mp_text.c_str() + mp_text.size() || !std::isfinite(cx.max_position))
    throw std::runtime_error("the check report's options.max_position: expected a finite number, got " +
                             (mp.type() == json::kind::string ? "\"" + mp_text.substr(0, 40) + "\""
                                                                : std::string(fields::kind_name(mp.type()))));
  cx.ro.timeout_ms = int(need(opt, "timeout_ms").as_integer());
  cx.ro.memory_limit = std::uint64_t(need(opt, "memory_limit_bytes").as_integer());
  cx.min_cases = int(need(opt, "min_cases").as_integer());
  const json& impl = need(j, "implementation");
  run_output o;
  if (const json* b = j.find("build"); b && b->type() == json::kind::string) o.build = b->as_string();
  o.lib.name = text(impl, "name");
  o.lib.given = text(impl, "path");
  for (std::size_t k = 0; k < sandbox::operations().size(); ++k) {  // one key per operation
    const sandbox::operation& row = sandbox::operations()[k];
    // a report written before ABI version 4 has no key for attend: not provided
    const json* has = row.since >= 4 ? impl.find(row.name) : &need(impl, row.name);
    if (has && has->as_bool()) o.lib.provides |= 1u << k;
  }
  if (const json* c = impl.find("attend_caps")) o.lib.attend_caps = std::uint32_t(c->as_integer());
  if (const json* c = impl.find("rope_caps")) o.lib.rope_caps = std::uint32_t(c->as_integer());
  if (const json* e = impl.find("attend_empty_rows")) o.lib.attend_empty_rows = std::uint32_t(e->as_integer());
  if (const json* d = impl.find("dtypes")) {  // a report written before ABI version 5 has none
    o.lib.dtypes = 0;
    for (const auto& n : d->items()) {
      const std::uint32_t before = o.lib.dtypes;
      if (n.second.type() == json::kind::string)
        for (pv_dtype t : sandbox::kDtypes)
          if (n.second.as_string() == sandbox::dtype_name(t)) o.lib.dtypes |= PV_DTYPE_BIT(t);
      if (o.lib.dtypes == before)  // not a dtype, or one listed twice
        throw std::runtime_error(
            "the check report's implementation.dtypes: " +
            (n.second.type() == json::kind::string ? "'" + pv::text::visible(n.second.as_string().substr(0, 40)) + "'"
                                                    : std::string("a ") + fields::kind_name(n.second.type())) +
            " is not a dtype listed once (float32, float64, float16, bfloat16)");
    }
  }
  need(j, "laws");
  o.laws = fields::read_list(j, "laws", law_fields(), "the merged check report");
  o.sweep = need(j, "sweep");
  o.diagnosis = need(j, "diagnosis");
  return o;
}

std::string markdown_of_json(const json& j) {
  check_run cx;
  const run_output o = run_of_json(j, cx);
  return report_md(cx, o, need(j, "regressions"), "");
}

}  // namespace pv::reports
