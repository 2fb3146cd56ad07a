#include "check/check.h"

#include "check/baseline.h"
#include "check/law.h"
#include "check/process_impl.h"
#include "check/sandbox.h"
#include "cli/options.h"
#include "posverify/report.h"
#include "posverify/text.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <sys/stat.h>

namespace pv::check {
namespace {

using cli::parse_u64;
using cli::usage_error;

/// A size in bytes: a whole number with an optional binary suffix K, M, G or
/// T (a bare number is MiB).
std::uint64_t parse_size(const std::string& flag, const std::string& v) {
  std::string digits = v;
  std::uint64_t unit = 1ull << 20;
  if (!v.empty()) {
    const char u = char(std::toupper(static_cast<unsigned char>(v.back())));
    const std::string units = "KMGT";
    if (units.find(u) != std::string::npos) {
      unit = 1ull << (10 * (units.find(u) + 1));
      digits.pop_back();
    }
  }
  const std::uint64_t n = parse_u64(flag, digits, 0, (1ull << 50) / unit);
  return n * unit;
}

std::string sanitize(const std::string& s) {
  std::string o;
  for (char c : s) o += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  if (o.empty() || o[0] == '.') o = "impl" + o;
  return o;
}

void ensure_dir(const std::string& dir) { make_out_dir(dir, "--out"); }

json law_json(const law_result& r, std::uint64_t seed) {
  json o = json::object();
  o.set("id", json::string(r.id));
  o.set("law", json::string(r.law));
  o.set("tolerance", json::string(r.tolerance));
  o.set("verdict", json::string(r.verdict));
  o.set("cases", json::integer(r.cases));
  o.set("seed", json::string(std::to_string(seed)));
  o.set("counterexample", r.verdict == "failed" ? json::string(r.counterexample) : json());
  o.set("replay", r.verdict == "failed" ? json::string(r.replay) : json());
  o.set("finding", r.finding.empty() ? json() : json::string(r.finding));
  o.set("base_id", json::string(r.base_id));
  o.set("dtype", json::string(r.dtype));
  o.set("config", r.config.empty() ? json() : json::string(r.config));
  o.set("unsupported_cases", json::integer(r.unsupported));
  if (r.has_worst) {
    json w = json::object();
    w.set("error", json::number(ref::to_decimal(r.worst_error)));
    w.set("bound", json::number(ref::to_decimal(r.worst_bound)));
    w.set("ratio", json::number(r.worst_bound > 0 ? ref::to_decimal(hp(r.worst_error / r.worst_bound), 6)
                                                  : std::string(r.worst_error > 0 ? "1e300" : "0")));
    w.set("where", json::string(r.worst_where));
    w.set("replay", json::string(r.worst_replay));
    w.set("max_error", json::number(ref::to_decimal(r.max_error)));
    w.set("max_error_bound", json::number(ref::to_decimal(r.max_error_bound)));
    o.set("worst", w);
  } else {
    o.set("worst", json());
  }
  for (const auto& kv : r.extra.items()) o.set(kv.first, kv.second);
  return o;
}

struct run_output {
  impl_info lib;
  std::vector<law_result> laws;
  json sweep = json::array(), diagnosis = json::array();
  double seconds = 0;
  std::vector<std::string> all_laws;  ///< base ids of every law of the library
};

void run_laws(const context& cx, run_output& o) {
  json sweep = json::array(), diagnosis = json::array();
  if (cx.lib.has_attention)
    for (auto& r : attention_laws(cx)) o.laws.push_back(std::move(r));
  if (cx.lib.has_rope)
    for (auto& r : rope_laws(cx, sweep, diagnosis)) o.laws.push_back(std::move(r));
  if (cx.lib.has_sinusoid)
    for (auto& r : sinusoid_laws(cx)) o.laws.push_back(std::move(r));
  for (const auto& kv : sweep.items()) o.sweep.push(kv.second);
  for (const auto& kv : diagnosis.items()) o.diagnosis.push(kv.second);
}

run_output run_all(context& cx) {
  run_output o;
  o.lib = cx.lib;
  auto t0 = std::chrono::steady_clock::now();
  // the accuracy class: --accuracy, else what a version-2 plugin declares
  if (!cx.accuracy_given) cx.accuracy = parse_accuracy(cx.lib.accuracy);
  run_laws(cx, o);
  if (cx.lib.abi_version >= 2)  // the 16-bit dtypes: the float32 laws in that format's accuracy
    for (pv_dtype w : {PV_F16, PV_BF16}) {
      context c16 = cx;
      c16.wire = w;
      c16.float_only = true;
      const accuracy_class fmt = parse_accuracy(w == PV_F16 ? "float16" : "bfloat16");
      if (c16.accuracy.u < fmt.u) c16.accuracy = fmt;
      run_laws(c16, o);
    }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const auto& r : o.laws)
    if (std::find(o.all_laws.begin(), o.all_laws.end(), r.base_id) == o.all_laws.end())
      o.all_laws.push_back(r.base_id);
  if (!cx.only_law.empty()) {  // leave out the laws that were not asked for
    std::vector<law_result> kept;
    for (auto& r : o.laws)
      if (r.id.rfind(cx.only_law, 0) == 0) kept.push_back(std::move(r));
    o.laws = std::move(kept);
  }
  return o;
}

std::string short_num(const hp& x) { return md::num(ref::to_decimal(x)); }

/// "25" or "12 (88 declined)": the evaluated cases and those the library
/// declined (returned 1).
std::string cases_text(const law_result& r) {
  return std::to_string(r.cases) + (r.unsupported ? " (" + std::to_string(r.unsupported) + " declined)" : "");
}

json report_json(const context& cx, const run_output& o, const json& regressions) {
  json j = json::object();
  j.set("tool", json::string("posverify"));
  j.set("version", json::string(POSVERIFY_VERSION));
  j.set("precision_bits", json::integer(ref::precision_bits()));
  j.set("seed", json::string(std::to_string(cx.seed)));
  json impl = json::object();
  impl.set("name", json::string(o.lib.name));
  impl.set("path", json::string(o.lib.given));
  impl.set("abi_version", json::integer(o.lib.abi_version));
  impl.set("attention", json::boolean(o.lib.has_attention));
  impl.set("rope", json::boolean(o.lib.has_rope));
  impl.set("sinusoid", json::boolean(o.lib.has_sinusoid));
  j.set("implementation", impl);
  json opt = json::object();
  opt.set("cases", json::integer(cx.cases));
  opt.set("max_position", json::number(to_decimal(cx.max_position)));
  opt.set("timeout_ms", json::integer(cx.ro.timeout_ms));
  opt.set("memory_limit_bytes", json::integer(static_cast<long>(cx.ro.memory_limit)));
  opt.set("min_cases", json::integer(cx.min_cases));
  opt.set("accuracy", json::string(cx.accuracy.name.empty() ? "dtype" : cx.accuracy.name));
  j.set("options", opt);
  std::map<std::string, int> count;
  for (const auto& r : o.laws) count[r.verdict]++;
  json sum = json::object();
  for (const auto& kv : count) sum.set(kv.first, json::integer(kv.second));
  j.set("summary", sum);
  json laws = json::array();
  for (const auto& r : o.laws) laws.push(law_json(r, cx.seed));
  j.set("laws", laws);
  j.set("sweep", o.sweep);
  j.set("diagnosis", o.diagnosis);
  j.set("regressions", regressions);
  return j;
}

std::string report_md(const context& cx, const run_output& o, const json& regressions,
                      const std::string& baseline) {
  std::string md = "# posverify check: " + text::markdown_inline(o.lib.name) + "\n\n";
  md += "Generated by `posverify check` (version " + std::string(POSVERIFY_VERSION) + ") on " +
        text::markdown_code(o.lib.given) + ": reference precision " + std::to_string(ref::precision_bits()) +
        " bits (MPFR), seed " + std::to_string(cx.seed) + ", " + std::to_string(cx.cases) +
        " cases per law, positions up to " + md::num(cx.max_position) +
        ". The library ran in a child process (per-call limit " + std::to_string(cx.ro.timeout_ms) +
        " ms, memory limit " +
        (cx.ro.memory_limit ? size_text(cx.ro.memory_limit) : std::string("none")) +
        ", guard bytes around every buffer; a law needs " + std::to_string(cx.min_cases) +
        " evaluated cases). Verdicts are computed; do not edit by hand.\n\n";
  md += "Provides: attention " + std::string(o.lib.has_attention ? "yes" : "no (laws not run)") +
        " · rope " + (o.lib.has_rope ? "yes" : "no (laws not run)") + " · sinusoid " +
        (o.lib.has_sinusoid ? "yes" : "no (laws not run)") + "\n\n";
  std::map<std::string, int> count;
  for (const auto& r : o.laws) count[r.verdict]++;
  md += "Laws: " + std::to_string(o.laws.size());
  for (const auto& kv : count) md += " · " + kv.first + " " + std::to_string(kv.second);
  md += "\n\n| law | verdict | cases | worst error / tolerance | where | finding |\n|---|---|---|---|---|---|\n";
  for (const auto& r : o.laws) {
    std::string w = r.has_worst ? short_num(r.worst_error) + " / " + short_num(r.worst_bound) : "—";
    md += "| `" + r.id + "` | **" + r.verdict + "** | " + cases_text(r) + " | " + w + " | " +
          markdown_cell(r.has_worst && r.verdict != "failed" ? r.worst_where : "—") + " | " +
          markdown_cell(r.finding.empty() ? "—" : md::prose(r.finding)) + " |\n";
  }
  if (!baseline.empty()) {
    md += "\n## Regressions against " + baseline + "\n\n";
    if (regressions.size() == 0) md += "None.\n";
    for (const auto& kv : regressions.items()) md += "- " + md::prose(kv.second.as_string()) + "\n";
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
    if (r.verdict == "failed") {
      if (!any_fail) md += "\n## Failures\n\n";
      any_fail = true;
      md += "### `" + r.id + "`\n\n" + r.law + "\n\n" + md::prose(r.finding) + "\n\n";
      if (const json* dg = r.extra.find("diagnosis")) md += "Diagnosis: " + dg->as_string() + "\n\n";
      md += "```\n" + r.counterexample + "\n```\n\nReplay: `" + r.replay + "`\n\n";
    }
  if (o.sweep.size()) {
    md += "\n## Position sweep (RoPE, error of one head at positions 2^j and 2^j + 1)\n\n";
    md += "Relative to the model tolerance at that position and at --max-position " +
          md::num(cx.max_position) + ": beyond the position where the error passes the latter, "
          "the kernel is less accurate than what was accepted over the model's range.\n\n";
    for (const auto& kv : o.sweep.items()) {
      const json& s = kv.second;
      md += "### " + s.find("config")->as_string() + " / " + s.find("dtype")->as_string() + "\n\n";
      if (const json* st = s.find("status")) {
        md += "not run: " + st->as_string() + "\n\n";
        continue;
      }
      const json* a = s.find("first_position_beyond_model");
      const json* b = s.find("first_position_beyond_max_position_tolerance");
      md += "First position beyond the model: " + (a && !a->is_null() ? a->as_string() : "none") +
            " · first position beyond the tolerance at --max-position: " +
            (b && !b->is_null() ? b->as_string() : "none") + "\n\n";
      md += "| position | max error | error / tolerance there | error / tolerance at max-position |\n|---|---|---|---|\n";
      for (const auto& rkv : s.find("rows")->items()) {
        const json& r = rkv.second;
        md += "| " + md::value(*r.find("position")) + " | " + md::value(*r.find("max_error")) + " | " +
              md::value(*r.find("error_over_tolerance")) + " | " +
              md::value(*r.find("error_over_tolerance_at_max_position")) + " |\n";
      }
      md += "\n";
    }
  }
  md += "\nTolerance rules:\n\n";
  std::set<std::string> seen;
  for (const auto& r : o.laws)
    if (seen.insert(r.base_id).second) md += "- `" + r.base_id + "`: " + r.law + ". Tolerance: " + r.tolerance + "\n";
  return md;
}

void print_laws(const run_output& o) {
  for (const auto& r : o.laws) {
    const char* tag = r.verdict == "passed"                                  ? "  ok    "
                      : r.verdict == "failed" || r.verdict == "insufficient" ? "  FAIL  "
                                                                             : "  --    ";
    std::cout << tag << r.id << "  (" << r.verdict << ", " << r.cases << " cases"
              << (r.unsupported ? ", " + std::to_string(r.unsupported) + " declined" : std::string()) << ")\n";
    if (!r.finding.empty()) std::cout << "        " << text::visible(r.finding) << "\n";
    if (r.verdict == "failed") {
      if (const json* dg = r.extra.find("diagnosis")) std::cout << "        diagnosis: " << dg->as_string() << "\n";
      std::cout << "        replay: " << text::visible(r.replay) << "\n";
    }
  }
}

int run_mutation(context& cx, const std::vector<std::string>& libs, const std::string& out_dir) {
  json rows = json::array();
  std::string md = "# posverify mutation score\n\nEach mutant is a deliberately wrong plugin (plugins/mutants/). "
                   "It is caught when at least one law fails on it; the table names the first law that "
                   "failed (in the order the laws run), after how many cases, and the finding. Seed " +
                   std::to_string(cx.seed) + ", " + std::to_string(cx.cases) + " cases per law. A mutant "
                   "built against ABI version 2 is also called with float16 and bfloat16 buffers (laws "
                   "`[float16]`, `[bfloat16]`); a sibling of a low-precision panel member declares the "
                   "member's accuracy class (shown beside its name) and is judged on those terms.\n\n"
                   "| mutant | caught by | cases | finding | laws failed | every law that failed |\n|---|---|---|---|---|---|\n";
  int caught = 0;
  std::string diagnoses;
  for (const auto& lib : libs) {
    json row = json::object();
    std::string name = lib.substr(lib.find_last_of('/') + 1);
    row.set("library", json::string(lib));
    try {
      cx.lib = probe_library(lib, cx.ro);
      name = cx.lib.name;
    } catch (const load_error& e) {
      row.set("mutant", json::string(name));
      row.set("caught", json::boolean(false));
      row.set("error", json::string(e.what()));
      rows.push(row);
      md += "| " + text::markdown_code(name) + " | **not loaded** | — | " + markdown_cell(e.what()) + " | — | — |\n";
      std::cout << "  ??    " << name << ": " << e.what() << "\n";
      continue;
    }
    if (!cx.accuracy_given) cx.accuracy = accuracy_class{};  // run_all reads the plugin's own
    auto o = run_all(cx);
    const std::string acc = cx.accuracy.name.empty() ? "dtype" : cx.accuracy.name;
    const law_result* first = nullptr;
    int nfail = 0;
    std::vector<std::string> bases;  // every law (without dtype/config) that failed
    for (const auto& r : o.laws)
      if (r.verdict == "failed") {
        if (!first) first = &r;
        ++nfail;
        if (std::find(bases.begin(), bases.end(), r.base_id) == bases.end()) bases.push_back(r.base_id);
      }
    std::string also;
    json laws_j = json::array();
    for (const auto& b : bases) {
      also += (also.empty() ? "" : ", ") + b;
      laws_j.push(json::string(b));
    }
    row.set("laws_that_failed", laws_j);
    row.set("mutant", json::string(name));
    row.set("accuracy", json::string(acc));
    row.set("caught", json::boolean(first != nullptr));
    row.set("caught_by", first ? json::string(first->id) : json());
    row.set("cases", first ? json::integer(first->cases) : json());
    row.set("finding", first ? json::string(first->finding) : json());
    row.set("replay", first ? json::string(first->replay) : json());
    if (first)
      if (const json* dg = first->extra.find("diagnosis")) row.set("diagnosis", *dg);
    row.set("laws_failed", json::integer(nfail));
    row.set("laws_run", json::integer(long(o.laws.size())));
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.3f", o.seconds);
    row.set("seconds", json::number(secs));
    rows.push(row);
    if (first) ++caught;
    md += "| " + text::markdown_code(name) + (acc == "dtype" ? "" : " (accuracy " + acc + ")") + " | " + (first ? "`" + first->id + "`" : std::string("**survived**")) + " | " +
          (first ? std::to_string(first->cases) : "—") + " | " + markdown_cell(first ? md::prose(first->finding) : "—") + " | " +
          std::to_string(nfail) + " of " + std::to_string(o.laws.size()) + " | " + (also.empty() ? "—" : also) + " |\n";
    if (first)
      if (const json* dg = first->extra.find("diagnosis"))
        diagnoses += "- " + text::markdown_code(name) + ": " + dg->as_string() + "\n";
    std::cout << (first ? "  caught   " : "  SURVIVED ") << name;
    if (first) std::cout << "  by " << first->id << " after " << first->cases << " cases: " << text::visible(first->finding);
    std::cout << "\n";
  }
  json j = json::object();
  j.set("tool", json::string("posverify"));
  j.set("version", json::string(POSVERIFY_VERSION));
  j.set("seed", json::string(std::to_string(cx.seed)));
  j.set("cases", json::integer(cx.cases));
  j.set("mutants", json::integer(long(libs.size())));
  j.set("caught", json::integer(caught));
  j.set("score", json::number(to_decimal(libs.empty() ? 0.0 : double(caught) / double(libs.size()))));
  j.set("rows", rows);
  md += "\nMutation score: " + std::to_string(caught) + " of " + std::to_string(libs.size()) + " caught.\n";
  if (!diagnoses.empty())
    md += "\n## Diagnoses of the RoPE mutants (black-box probes, first failing configuration)\n\n" + diagnoses;
  ensure_dir(out_dir);
  write_files_atomic({{out_dir + "/mutation.json", j.dump()}, {out_dir + "/mutation.md", md}});
  std::cout << "mutation score: " << caught << " of " << libs.size() << " caught; wrote " << out_dir
            << "/mutation.md and " << out_dir << "/mutation.json\n";
  return caught == int(libs.size()) && !libs.empty() ? 0 : 1;
}

/// The panel of correct implementations (plugins/panel/, docs/check.md): every
/// law must pass on every member, at every seed and both position ranges;
/// panel.md/.json give each law's worst error/tolerance ratio across the panel
/// (how close to a false alarm the rules run; the target is <= 0.5).
int run_panel(context& cx, const std::vector<std::string>& libs, const std::string& out_dir, int seeds,
              const std::vector<double>& max_positions) {
  struct worst {
    double ratio = 0;
    std::string where;
    int runs = 0, failed = 0;
  };
  json rows = json::array();
  std::string md = "# posverify panel of correct implementations\n\nEach member is a correct kernel written the "
                   "way a real library writes it (plugins/panel/, and the built-in flash_float); each has a "
                   "wrong sibling in the mutation suite. Every law must pass on every member. The ratio is the "
                   "largest error/tolerance of the law over every dtype, configuration, seed (" +
                   std::to_string(seeds) + " seeds from " + std::to_string(cx.seed) + ", " +
                   std::to_string(cx.cases) + " cases per law) and position range (--max-position";
  for (double m : max_positions) md += " " + md::num(m);
  md += "): how close the rules run to a false alarm. Target: at most 0.5.\n\n";
  int false_alarms = 0, above_target = 0;
  const std::uint64_t seed0 = cx.seed;
  for (const auto& given : libs) {
    // LIB.so@CLASS: a member whose arithmetic is coarser than its interface (--accuracy CLASS)
    const auto at = given.rfind('@');
    const std::string lib = given.substr(0, at);
    try {
      cx.accuracy = parse_accuracy(at == std::string::npos ? "" : given.substr(at + 1));
      cx.accuracy_given = at != std::string::npos;
    } catch (const std::invalid_argument& e) {
      throw usage_error(std::string(e.what()) + " (in --panel entry '" + given + "')");
    }
    try {
      cx.lib = probe_library(lib, cx.ro.timeout_ms);
    } catch (const load_error& e) {
      std::cerr << "posverify: " << e.what() << "\n";
      return 2;
    }
    std::map<std::string, worst> per_law;
    std::vector<std::string> order, failures;
    for (double mp : max_positions)
      for (int s = 0; s < seeds; ++s) {
        cx.seed = seed0 + std::uint64_t(s);
        cx.max_position = mp;
        auto o = run_all(cx);
        for (const auto& r : o.laws) {
          if (r.verdict != "passed" && r.verdict != "failed") continue;
          if (!per_law.count(r.base_id)) order.push_back(r.base_id);
          auto& w = per_law[r.base_id];
          ++w.runs;
          if (r.verdict == "failed") {
            ++w.failed;
            failures.push_back(r.id + " (seed " + std::to_string(cx.seed) + ", --max-position " + to_decimal(mp) +
                               "): " + r.finding);
          }
          if (r.has_worst && r.worst_bound > 0) {
            const double q = convert<double>(hp(r.worst_error / r.worst_bound));
            if (q >= w.ratio) {
              w.ratio = q;
              w.where = r.id + ", seed " + std::to_string(cx.seed) + ", --max-position " + to_decimal(mp);
            }
          }
        }
      }
    cx.seed = seed0;
    json row = json::object();
    row.set("member", json::string(cx.lib.name));
    row.set("library", json::string(lib));
    row.set("accuracy", json::string(cx.accuracy.name.empty() ? "dtype" : cx.accuracy.name));
    json laws = json::array();
    md += "## `" + cx.lib.name + "`" + (cx.accuracy.name.empty() ? "" : " (--accuracy " + cx.accuracy.name + ")") +
          "\n\n| law | runs | failed | worst error / tolerance | where |\n|---|---|---|---|---|\n";
    for (const auto& id : order) {
      const auto& w = per_law[id];
      const std::string q = md::num(w.ratio);
      json l = json::object();
      l.set("law", json::string(id));
      l.set("runs", json::integer(w.runs));
      l.set("failed", json::integer(w.failed));
      l.set("worst_ratio", json::number(to_decimal(w.ratio)));
      l.set("where", json::string(w.where));
      laws.push(l);
      if (w.ratio > 0.5) ++above_target;
      md += "| `" + id + "` | " + std::to_string(w.runs) + " | " + std::to_string(w.failed) + " | " + q +
            (w.ratio > 0.5 ? " (above 0.5)" : "") + " | " + markdown_cell(w.where) + " |\n";
    }
    row.set("laws", laws);
    json fj = json::array();
    for (const auto& f : failures) fj.push(json::string(f));
    row.set("false_alarms", fj);
    rows.push(row);
    false_alarms += int(failures.size());
    if (!failures.empty()) {
      md += "\nFalse alarms:\n\n";
      for (const auto& f : failures) md += "- " + markdown_cell(md::prose(f)) + "\n";
    }
    md += "\n";
    std::cout << (failures.empty() ? "  passed  " : "  FALSE ALARM  ") << cx.lib.name << "\n";
    for (const auto& f : failures) std::cout << "        " << f << "\n";
  }
  md += "False alarms: " + std::to_string(false_alarms) + "; laws above the 0.5 target: " +
        std::to_string(above_target) + ".\n";
  json j = json::object();
  j.set("tool", json::string("posverify"));
  j.set("version", json::string(POSVERIFY_VERSION));
  j.set("seed", json::string(std::to_string(seed0)));
  j.set("seeds", json::integer(seeds));
  j.set("cases", json::integer(cx.cases));
  j.set("false_alarms", json::integer(false_alarms));
  j.set("laws_above_target", json::integer(above_target));
  j.set("members", rows);
  ensure_dir(out_dir);
  write_files_atomic({{out_dir + "/panel.json", j.dump()}, {out_dir + "/panel.md", md}});
  std::cout << "panel: " << libs.size() << " members, " << false_alarms << " false alarms, " << above_target
            << " laws above the 0.5 target; wrote " << out_dir << "/panel.md and " << out_dir << "/panel.json\n";
  return false_alarms == 0 ? 0 : 1;
}

/// Everything `check` takes from its command line.
struct check_args {
  context cx;
  int min_cases = -1;
  std::string impl, out_dir = "reports", baseline, save_baseline;
  bool mutation = false, panel = false, seed_set = false, cases_set = false, maxpos_set = false;
  int seeds = 1;
  unsigned bits = 128;
  std::vector<std::string> libs;  ///< the libraries after --mutation / --panel
};

/// The option table of `posverify check` (one row per option).
cli::option_table check_options(check_args& a) {
  context& cx = a.cx;
  auto accuracy = [&](const std::string& v) {
    try {
      cx.accuracy = parse_accuracy(v);
      cx.accuracy_given = true;
    } catch (const std::invalid_argument& e) {
      throw usage_error(e.what());
    }
  };
  auto rope_preset = [&](const std::string& v) {
    try {
      cx.rope_configs.push_back(parse_rope_preset(v));
    } catch (const std::invalid_argument& e) {
      throw usage_error(e.what());
    }
  };
  auto rope_config = [&](const std::string& v) {
    try {
      cx.rope_configs.push_back(parse_rope_config(v));
    } catch (const std::invalid_argument& e) {
      throw usage_error(e.what());
    }
  };
  return {
      {"--impl", "LIB.so", "the implementation to check: a shared library, or python:MODULE:OBJECT (a Python "
       "implementation, python/posverify/, served by a process over docs/protocol.md)",
       [&](const std::string& v) { a.impl = v; }},
      {"--impl-cmd", "\"CMD ARGS\"", "a server in any language speaking docs/protocol.md",
       [&](const std::string& v) { set_process_option("--impl-cmd", v, a.impl); }},
      {"--python", "PATH", "the Python of python:MODULE:OBJECT (default $POSVERIFY_PYTHON, else /usr/bin/python3)",
       [&](const std::string& v) { set_process_option("--python", v, a.impl); }},
      {"--python-path", "DIR", "prepended to the Python server's PYTHONPATH",
       [&](const std::string& v) { set_process_option("--python-path", v, a.impl); }},
      {"--device", "DEV", "the device the Python server puts tensors on (e.g. cuda:0; default cpu)",
       [&](const std::string& v) { set_process_option("--device", v, a.impl); }},
      {"--out", "DIR", "where the reports go (default reports/)", [&](const std::string& v) { a.out_dir = v; }},
      {"--cases", "N", "random cases per law (default 100)",
       [&](const std::string& v) { cx.cases = int(cases_option.parse(v)), a.cases_set = true; }},
      {"--seed", "S", "seed of the run (default 1)",
       [&](const std::string& v) { cx.seed = seed_option.parse(v), a.seed_set = true; }},
      {"--max-position", "P", "largest position the model uses (default 8192)",
       [&](const std::string& v) { cx.max_position = double(max_position_option.parse(v)), a.maxpos_set = true; }},
      {"--timeout-ms", "MS", "time limit of one call (default 2000)",
       [&](const std::string& v) { cx.ro.timeout_ms = int(parse_u64("--timeout-ms", v, 10, 3600000)); }},
      {"--memory-limit", "SIZE",
       "how much memory the library's process may allocate, e.g. 4G, 512M (a bare number is MiB; "
       "default 4G; 0: no limit; see docs/reliability.md for GPU libraries)",
       [&](const std::string& v) { cx.ro.memory_limit = parse_size("--memory-limit", v); }},
      {"--min-cases", "N",
       "a law with fewer evaluated cases than N (the library declined the rest) is insufficient, "
       "exit 1 (default: a quarter of --cases)",
       [&](const std::string& v) { a.min_cases = int(parse_u64("--min-cases", v, 1, 1000000)); }},
      {"--precision-bits", "B", "reference precision (default 128, range [64, 4096])",
       [&](const std::string& v) { a.bits = unsigned(cli::precision_bits_option.parse(v)); }},
      {"--baseline", "OLD.json", "compare with an earlier report: exit 1 on a regression",
       [&](const std::string& v) { a.baseline = v; }},
      {"--save-baseline", "F", "write this run's report to F as a baseline",
       [&](const std::string& v) { a.save_baseline = v; }},
      {"--rope-config", "SPEC",
       "RoPE configuration to check, PAIRING:THETA:DIMS, e.g. halves:500000:128 or "
       "adjacent:10000:16,56,56 (repeatable; default: text 64/128 in both conventions and FLUX.1); "
       ":MODIFIERS adds partial(R), mrope(T,H,W), linear(S), ntk(S), dynamic(S,L0,L), "
       "yarn(S,BF,BS,L0) or llama3(S,LOW,HIGH,L0), joined by + (docs/rope-configs.md)",
       rope_config},
      {"--rope-preset", "NAME",
       "a model's RoPE: llama-3.1-8b, qwen2-vl, flux.1, phi-2, gpt-neox-20b (repeatable, with "
       "--rope-config)",
       rope_preset},
      {"--accuracy", "CLASS",
       "the kernel's arithmetic is coarser than its interface: float16 or bfloat16 (inputs stored "
       "in that format, float32 accumulation) or float16-accumulation; the laws use that format's "
       "unit roundoff (docs/check.md)",
       accuracy},
      {"--law", "ID", "run only the laws whose id starts with ID", [&](const std::string& v) { cx.only_law = v; }},
      {"--case", "K", "run only case K (with --law: replays a failure)",
       [&](const std::string& v) { cx.only_case = int(parse_u64("--case", v, 0, 1000000)); }},
      {"--mutation", "",
       "every LIB given is a deliberately wrong plugin; write mutation.md/.json; exit 1 if one "
       "survives every law",
       [&](const std::string&) { a.mutation = true; }},
      {"--panel", "", "every LIB given is a correct member of the panel; write panel.md/.json",
       [&](const std::string&) { a.panel = true; }},
      {"--seeds", "N", "seeds per panel member (default 1)",
       [&](const std::string& v) { a.seeds = int(parse_u64("--seeds", v, 1, 10000)); }},
  };
}

}  // namespace

std::string check_usage() {
  check_args scratch;
  return "usage: posverify check --impl LIB.so [options]\n"
         "       posverify check --mutation LIB.so... [options]\n"
         "\n"
         "Runs the laws of attention, RoPE and the sinusoid on the implementation in LIB.so\n"
         "(a shared library exporting posverify_impl(), see posverify/impl.h), in a child\n"
         "process, on every dtype it supports; writes <name>.md and <name>.json.\n"
         "\n" +
         cli::options_help(check_options(scratch)) +
         "\n"
         "exit codes: 0 every law holds; 1 a law fails, is insufficient or regressed; 2\n"
         "bad usage, an unknown --law, or a library that cannot be loaded (wrong ABI\n"
         "version, missing symbol, ...).\n";
}

namespace {

int run(const std::vector<std::string>& args) {
  check_args a;
  install_signal_handlers();  // SIGINT/SIGTERM: kill the plugin's process group first
  cli::parse_options("check", check_options(a), args, &a.libs);
  if (!a.libs.empty() && !(a.mutation || a.panel)) throw usage_error("check: unknown option '" + a.libs[0] + "'");
  context& cx = a.cx;
  const int min_cases = a.min_cases;
  const std::string &impl = a.impl, &out_dir = a.out_dir, &baseline = a.baseline, &save_baseline = a.save_baseline;
  const bool mutation = a.mutation, panel = a.panel, seed_set = a.seed_set, cases_set = a.cases_set,
             maxpos_set = a.maxpos_set;
  const int seeds = a.seeds;
  const unsigned bits = a.bits;
  std::vector<std::string>& libs = a.libs;
  ref::set_precision_bits(bits);
  cx.min_cases = min_cases >= 0 ? min_cases : std::max(1, cx.cases / 4);
  if (mutation) {
    if (!impl.empty()) libs.insert(libs.begin(), impl);
    if (libs.empty()) throw usage_error("--mutation needs at least one library");
    cx.scaled_defaults = true;  // without --rope-config: the scaled configurations too
    return run_mutation(cx, libs, out_dir);
  }
  if (panel) {
    if (!impl.empty()) libs.insert(libs.begin(), impl);
    if (libs.empty()) throw usage_error("--panel needs at least one library");
    return run_panel(cx, libs, out_dir, seeds,
                     maxpos_set ? std::vector<double>{cx.max_position} : std::vector<double>{8192, 131072});
  }
  if (impl.empty()) throw usage_error("check: --impl LIB.so is required (or --impl python:MODULE:OBJECT, or --impl-cmd)");
  struct baseline base;
  if (!baseline.empty()) {  // checked in full before anything runs
    base = load_baseline(baseline);
    // compare like with like: take the baseline's seed, cases and range unless given
    if (base.seed && !seed_set) cx.seed = *base.seed;
    if (base.cases && !cases_set) cx.cases = int(*base.cases);
    if (base.max_position && !maxpos_set) cx.max_position = double(*base.max_position);
    if (min_cases < 0) cx.min_cases = std::max(1, cx.cases / 4);
  }
  ensure_dir(out_dir);
  try {
    cx.lib = probe_library(impl, cx.ro);
  } catch (const load_error& e) {
    std::cerr << "posverify: " << e.what() << "\n";
    return 2;
  }
  std::cout << "checking " << cx.lib.name << " (" << text::visible(impl) << "), seed " << cx.seed << ", " << cx.cases
            << " cases per law, positions up to " << to_decimal(cx.max_position) << "\n";
  auto o = run_all(cx);
  if (!cx.only_law.empty() && o.laws.empty()) {
    std::string known;
    for (const auto& id : o.all_laws) known += "\n  " + id;
    throw usage_error("--law: no law of " + cx.lib.name + " has an id starting with '" + text::visible(cx.only_law) +
                      "' (ids are LAW[dtype] or LAW[config/dtype]; --law takes a prefix). Its laws:" +
                      (known.empty() ? std::string(" none") : known));
  }
  print_laws(o);
  json regs = json::array();
  if (!baseline.empty()) regs = compare(base, o.laws);
  const std::string name = sanitize(cx.lib.name);
  json j = report_json(cx, o, regs);
  std::vector<std::pair<std::string, std::string>> files = {
      {out_dir + "/" + name + ".json", j.dump()}, {out_dir + "/" + name + ".md", report_md(cx, o, regs, baseline)}};
  if (!save_baseline.empty()) files.emplace_back(save_baseline, j.dump());
  write_files_atomic(files);
  bool ok = true, any = false;
  for (const auto& r : o.laws) {
    if (r.verdict == "failed" || r.verdict == "insufficient") ok = false;
    if (r.verdict == "passed" || r.verdict == "failed" || r.verdict == "insufficient") any = true;
  }
  for (const auto& kv : o.sweep.items()) {
    const json& sw = kv.second;
    const json* b = sw.find("first_position_beyond_max_position_tolerance");
    if (!b || sw.find("status")) continue;
    std::cout << "  sweep " << sw.find("config")->as_string() << "/" << sw.find("dtype")->as_string() << ": "
              << (b->is_null() ? std::string("the error stays within the tolerance accepted at --max-position up to 2^20 + 1")
                               : "the error passes the tolerance accepted at --max-position from position " + number_text(*b))
              << "\n";
  }
  for (const auto& kv : regs.items()) std::cout << "  REGRESSION  " << kv.second.as_string() << "\n";
  std::cout << "wrote " << out_dir << "/" << name << ".md and .json";
  if (!save_baseline.empty()) std::cout << "; baseline " << save_baseline;
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", o.seconds);
  std::cout << " (" << secs << " s, "
            << stats().children << " child processes, " << stats().calls << " calls)\n";
  if (!any && cx.only_law.empty()) {
    std::cout << "no law could be run: the library provides no function, or declines every dtype\n";
    return 1;
  }
  return ok && regs.size() == 0 ? 0 : 1;
}

}  // namespace
}  // namespace pv::check

int cmd_check(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << pv::check::check_usage();
      return 0;
    }
  try {
    return pv::check::run(args);
  } catch (const pv::check::usage_error& e) {
    std::cerr << "posverify: " << e.what() << "\n\n" << pv::check::check_usage();
    return 2;
  }
}
