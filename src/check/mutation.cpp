// `posverify check --mutation`: the mutation score (split out of check.cpp).
#include "check/check_run.h"

#include "check/law.h"
#include "check/sandbox.h"
#include "cli/options.h"
#include "posverify/report.h"
#include "posverify/text.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace pv::check {

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
      if (r.verdict == verdict::failed) {
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

}  // namespace pv::check
