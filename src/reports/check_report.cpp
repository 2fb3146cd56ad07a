// The report of `posverify check`: <name>.json, <name>.md and the console
// lines (split out of check.cpp).
#include "reports/check_report.h"

#include "reports/build_line.h"
#include "blackbox/run.h"

#include "blackbox/law_run.h"
#include "sandbox/sandbox.h"
#include "blackbox/shapes.h"
#include "core/files.h"
#include "reports/markdown.h"
#include "core/shard.h"
#include "core/text.h"
#include "laws/attention/shapes.h"

#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>

namespace pv::reports {

using namespace pv::blackbox;  // the records this file writes

namespace {

std::string short_num(const hp& x) { return md::num(ref::to_decimal(x)); }

/// Field `key` of the report entry `o` at `where` ("sweep[2].rows[0]"): a
/// report read back (posverify merge) may lack it, so it is looked up, never
/// assumed; throws std::runtime_error naming the place.
const json& field(const json& o, const char* key, const std::string& where) {
  const json* v = o.type() == json::kind::object ? o.find(key) : nullptr;
  if (!v) throw std::runtime_error(where + ": no \"" + key + "\"");
  return *v;
}

/// "25" or "12 (88 declined)": the evaluated cases and those the library
/// declined (returned 1).
std::string cases_text(const law_result& r) {
  return std::to_string(r.cases) + (r.unsupported ? " (" + std::to_string(r.unsupported) + " declined)" : "");
}

}  // namespace

json report_json(const check_run& cx, const run_output& o, const json& regressions) {
  json j = json::object();
  j.set("tool", json::string("posverify"));
  j.set("version", json::string(POSVERIFY_VERSION));
  if (!o.build.empty()) j.set("build", json::string(o.build));
  j.set("precision_bits", json::integer(ref::precision_bits()));
  j.set("seed", json::string(std::to_string(cx.seed)));
  json impl = json::object();
  impl.set("name", json::string(o.lib.name));
  impl.set("path", json::string(o.lib.given));
  impl.set("abi_version", json::integer(o.lib.abi_version));
  for (std::size_t k = 0; k < sandbox::operations().size(); ++k)  // what it provides, one key per operation
    impl.set(sandbox::operations()[k].name, json::boolean(o.lib.has(sandbox::op(k))));
  if (o.lib.has(sandbox::op::rope))  // the RoPE configurations it is sent (ABI version 6)
    impl.set("rope_caps", json::integer(o.lib.rope_caps));
  if (o.lib.has(sandbox::op::attend)) {  // what it declares for attend (ABI version 4)
    impl.set("attend_caps", json::integer(o.lib.attend_caps));
    impl.set("attend_empty_rows", json::integer(o.lib.attend_empty_rows));
  }
  json dt = json::array();  // the dtypes it was offered (16-bit ones declared: impl.h, version 5)
  for (pv_dtype t : sandbox::kDtypes)
    if (o.lib.offers(t)) dt.push(json::string(sandbox::dtype_name(t)));
  impl.set("dtypes", dt);
  j.set("implementation", impl);
  json opt = json::object();
  opt.set("cases", json::integer(cx.cases));
  opt.set("max_position", json::number(to_decimal(cx.max_position)));
  opt.set("timeout_ms", json::integer(cx.ro.timeout_ms));
  opt.set("memory_limit_bytes", json::integer(static_cast<long>(cx.ro.memory_limit)));
  opt.set("min_cases", json::integer(cx.min_cases));
  opt.set("accuracy", json::string(cx.accuracy.name.empty() ? "dtype" : cx.accuracy.name));
  // --law: the laws asked for (a shard of such a run lacks the others, and
  // merge knows it; shards of different --law are not one run)
  // (one --law: its prefix; several: the array of them)
  if (cx.only_law.size() == 1) opt.set("law", json::string(cx.only_law[0]));
  if (cx.only_law.size() > 1) {
    json laws = json::array();
    for (const auto& l : cx.only_law) laws.push(json::string(l));
    opt.set("law", laws);
  }
  j.set("options", opt);
  std::map<std::string, int> count;
  for (const auto& r : o.laws) count[to_string(r.verdict)]++;
  json sum = json::object();
  for (const auto& kv : count) sum.set(kv.first, json::integer(kv.second));
  j.set("summary", sum);
  json laws = json::array();
  for (const auto& r : o.laws) laws.push(law_fields().write(r));  // blackbox/law_result.h
  j.set("laws", laws);
  j.set("sweep", o.sweep);
  j.set("diagnosis", o.diagnosis);
  j.set("regressions", regressions);
  if (cx.units->spec.sharded()) {
    std::vector<long> lu;
    for (const auto& r : o.laws) lu.push_back(r.unit);
    j.set("shard", shard::record(cx.units->spec, o.units,
                                 {{"laws", lu}, {"sweep", o.sweep_units}, {"diagnosis", o.diagnosis_units}}));
  }
  return j;
}

namespace {

/// The Markdown section "time and memory per shape" of the check report ("" if none ran).
std::string shapes_markdown(const std::vector<law_result>& laws) {
  std::string md;
  for (const auto& r : laws) {
    const json* rows = r.base_id == pv::laws::attention_shapes::id ? r.extra.find("shapes") : nullptr;
    if (!rows || rows->size() == 0) continue;
    if (md.empty())
      md = "\n## Shapes (attention.shapes): time, time limit and peak memory of the library's process per "
           "shape\n\nThe time of a call runs from the previous result of its child (the first call of a child "
           "includes its start: fork and dlopen); its limit grows with the work of the call (--timeout-ms + "
           "20 ns per multiply-add n_q n_k (d + d_v)). Shapes of 2^24 multiply-adds and more run in a child of "
           "their own, the smaller ones share one, whose peak resident memory (ru_maxrss, counting the pages "
           "it shares with posverify since the fork: the inputs) each row shows (* = shared child).\n";
    md += "\n### `" + r.id + "`\n\n| case | shape | inputs | reference | time (s) | limit (ms) | peak RSS (MiB) | "
          "error / tolerance | MPFR sample (entries, worst) |\n|---|---|---|---|---|---|---|---|---|\n";
    std::size_t i = 0;
    for (const auto& kv : rows->items()) {
      const json& x = kv.second;
      const std::string at = r.id + ": shapes[" + std::to_string(i++) + "]";
      auto f = [&](const char* key) -> const json& { return field(x, key, at); };
      char mib[32];
      std::snprintf(mib, sizeof mib, "%.1f%s", double(f("peak_rss_kib").as_integer()) / 1024,
                    f("own_child").as_bool() ? "" : " *");
      // md::value: 4 significant digits, and the same text for a number read back from JSON (merge)
      const std::string ratio = md::value(f("worst_ratio"));
      const std::string agree = md::value(f("mpfr_sample_worst_ratio"));
      md += "| " + std::to_string(f("case").as_integer()) + " | " + f("shape").as_string() + " | " +
            f("inputs").as_string() + " | " + f("reference").as_string() + " | " + md::value(f("seconds")) + " | " +
            std::to_string(f("time_limit_ms").as_integer()) + " | " + mib + " | " + ratio + " | " +
            std::to_string(f("mpfr_sample_entries").as_integer()) + ", " + agree + " |\n";
    }
  }
  return md;
}

}  // namespace


std::string report_md(const check_run& cx, const run_output& o, const json& regressions,
                      const std::string& baseline) {
  std::string md = "# posverify check: " + text::markdown_inline(o.lib.name) + "\n\n" + build_markdown(o.build);
  md += "Generated by `posverify check` (version " + std::string(POSVERIFY_VERSION) + ") on " +
        text::markdown_code(o.lib.given) + ": reference precision " + std::to_string(ref::precision_bits()) +
        " bits (MPFR), seed " + std::to_string(cx.seed) + ", " + std::to_string(cx.cases) +
        " cases per law, positions up to " + md::num(cx.max_position) +
        ". The library ran in a child process (per-call limit " + std::to_string(cx.ro.timeout_ms) +
        " ms, memory limit " +
        (cx.ro.memory_limit ? sandbox::size_text(cx.ro.memory_limit) : std::string("none")) +
        ", guard bytes around every buffer; a law needs " + std::to_string(cx.min_cases) +
        " evaluated cases). Verdicts are computed; do not edit by hand.\n\n";
  md += "Provides:";
  for (std::size_t k = 0; k < sandbox::operations().size(); ++k)
    md += std::string(k ? " · " : " ") + sandbox::operations()[k].name + " " +
          (o.lib.has(sandbox::op(k)) ? "yes" : "no (laws not run)");
  if (o.lib.has(sandbox::op::rope)) {  // the configurations of versions 3 and 7 it is sent (impl.h)
    // bit b of rope_caps (bit 3, the length model, is said below)
    static const char* const caps[] = {"partial rotary", "M-RoPE", "scaled speeds", nullptr, "a rotary offset",
                                       "frequency factors"};
    std::string c;
    for (unsigned b = 0; b < 6; ++b)
      if (caps[b] && o.lib.rope_caps >> b & 1) c += (c.empty() ? "" : ", ") + std::string(caps[b]);
    md += " (rope is sent " + (c.empty() ? std::string("plain configurations only") : "plain configurations, " + c) +
          (o.lib.rope_caps & PV_ROPE_LENGTH_FROM_POSITIONS
               ? "; it takes dynamic NTK's length from the call's positions: each such call carries a row at "
                 "position L - 1 and no position past it"
               : "") +
          ")";
  }
  if (o.lib.has(sandbox::op::attend)) {
    static const char* const caps[] = {"causal", "window", "padding", "GQA", "softcap", "sinks", "ALiBi", "LSE"};
    static const char* const empty[] = {"undeclared (never sent)", "zeros", "NaN", "the mean of V"};
    std::string c;
    for (unsigned b = 0; b < 8; ++b)
      if (o.lib.attend_caps >> b & 1) c += (c.empty() ? "" : ", ") + std::string(caps[b]);
    md += " (attend declares " + (c.empty() ? std::string("no capability") : c) + "; empty rows: " +
          empty[o.lib.attend_empty_rows <= 3 ? o.lib.attend_empty_rows : 0] + ")";
  }
  std::string offered, not_declared;
  for (pv_dtype t : sandbox::kDtypes) {
    std::string& list = o.lib.offers(t) ? offered : not_declared;
    list += (list.empty() ? "" : ", ") + std::string(sandbox::dtype_name(t));
  }
  md += "\n\nDtypes offered: " + offered +
        (not_declared.empty() ? std::string() : " (" + not_declared + ": not declared, not sent)");
  md += "\n\n";
  std::map<std::string, int> count;
  for (const auto& r : o.laws) count[to_string(r.verdict)]++;
  md += "Laws: " + std::to_string(o.laws.size());
  for (const auto& kv : count) md += " · " + kv.first + " " + std::to_string(kv.second);
  md += "\n\n| law | verdict | cases | worst error / tolerance | where | finding |\n|---|---|---|---|---|---|\n";
  for (const auto& r : o.laws) {
    std::string w = r.has_worst ? short_num(r.worst_error) + " / " + short_num(r.worst_bound) : "—";
    md += "| `" + r.id + "` | **" + std::string(to_string(r.verdict)) + "** | " + cases_text(r) + " | " + w + " | " +
          markdown_cell(r.has_worst && r.verdict != verdict::failed ? r.worst_where : "—") + " | " +
          markdown_cell(r.finding.empty() ? "—" : md::untrusted(md::prose(r.finding))) + " |\n";
  }
  if (!baseline.empty()) {
    md += "\n## Regressions against " + baseline + "\n\n";
    if (regressions.size() == 0) md += "None.\n";
    for (const auto& kv : regressions.items()) md += "- " + md::untrusted(md::prose(kv.second.as_string())) + "\n";
  }
  if (o.diagnosis.size()) {
    md += "\n## Diagnosis (black-box probes with unit vectors)\n\n";
    for (const auto& kv : o.diagnosis.items()) {
      const json* c = kv.second.find("config");
      const json* m = kv.second.find("message");
      md += "- `" + (c ? c->as_string() : "") + "`: " + (m ? m->as_string() : "") + "\n";
    }
  }
  bool any_fail = false;
  for (const auto& r : o.laws)
    if (r.verdict == verdict::failed) {
      if (!any_fail) md += "\n## Failures\n\n";
      any_fail = true;
      // the finding may quote the library's stderr: made inert (md::untrusted)
      md += "### `" + r.id + "`\n\n" + r.law + "\n\n" + md::untrusted(md::prose(r.finding)) + "\n\n";
      if (const json* dg = r.extra.find("diagnosis")) md += "Diagnosis: " + md::untrusted(dg->as_string()) + "\n\n";
      const std::string f = md::fence(r.counterexample);
      md += f + "\n" + r.counterexample + "\n" + f + "\n\n" + md::untrusted("Replay: `" + r.replay + "`") + "\n\n";
    }
  if (o.sweep.size()) {
    md += "\n## Position sweep (RoPE, error of one head at positions 2^j and 2^j + 1)\n\n";
    md += "Relative to the model tolerance at that position and at --max-position " +
          md::num(cx.max_position) + ": beyond the position where the error passes the latter, "
          "the kernel is less accurate than what was accepted over the model's range.\n\n";
    std::size_t si = 0;
    for (const auto& kv : o.sweep.items()) {
      const json& s = kv.second;
      const std::string at = "sweep[" + std::to_string(si++) + "]";
      md += "### " + field(s, "config", at).as_string() + " / " + field(s, "dtype", at).as_string() + "\n\n";
      if (const json* st = s.find("status")) {
        md += "not run: " + st->as_string() + "\n\n";
        continue;
      }
      const json* a = s.find("first_position_beyond_model");
      const json* b = s.find("first_position_beyond_max_position_tolerance");
      md += "First position beyond the model: " + (a && !a->is_null() ? number_text(*a) : "none") +
            " · first position beyond the tolerance at --max-position: " +
            (b && !b->is_null() ? number_text(*b) : "none") + "\n\n";
      md += "| position | max error | error / tolerance there | error / tolerance at max-position |\n|---|---|---|---|\n";
      std::size_t ri = 0;
      for (const auto& rkv : field(s, "rows", at).items()) {
        const json& r = rkv.second;
        const std::string rat = at + ".rows[" + std::to_string(ri++) + "]";
        md += "| " + md::value(field(r, "position", rat)) + " | " + md::value(field(r, "max_error", rat)) + " | " +
              md::value(field(r, "error_over_tolerance", rat)) + " | " +
              md::value(field(r, "error_over_tolerance_at_max_position", rat)) + " |\n";
      }
      md += "\n";
    }
  }
  md += shapes_markdown(o.laws);
  md += "\nTolerance rules:\n\n";
  std::set<std::string> seen;
  for (const auto& r : o.laws)
    if (seen.insert(r.base_id).second) md += "- `" + r.base_id + "`: " + r.law + ". Tolerance: " + r.tolerance + "\n";
  return md;
}

void print_laws(const run_output& o) {
  for (const auto& r : o.laws) {
    const char* tag = r.verdict == verdict::passed ? "  ok    " : fails_the_run(r.verdict) ? "  FAIL  " : "  --    ";
    std::cout << tag << r.id << "  (" << to_string(r.verdict) << ", " << r.cases << " cases"
              << (r.unsupported ? ", " + std::to_string(r.unsupported) + " declined" : std::string()) << ")\n";
    if (!r.finding.empty()) std::cout << "        " << text::visible(r.finding) << "\n";
    if (r.verdict == verdict::failed) {
      if (const json* dg = r.extra.find("diagnosis")) std::cout << "        diagnosis: " << dg->as_string() << "\n";
      std::cout << "        replay: " << text::visible(r.replay) << "\n";
    }
  }
}

}  // namespace pv::reports
