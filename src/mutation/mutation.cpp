// `posverify check --mutation`: runs every law on every mutant (plugins/mutants/)
// and records which law caught it first; reports/mutation_report.h writes
// mutation.json and mutation.md from the record.
#include "mutation/mutation.h"

#include "blackbox/run.h"

#include "blackbox/law_run.h"
#include "sandbox/sandbox.h"
#include "core/text.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace pv::mutation {

using namespace pv::blackbox;  // the run and its laws

json run_mutation(blackbox::check_run& cx, const std::vector<std::string>& libs) {
  json rows = json::array();
  int caught = 0;
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
      std::cout << "  ??    " << name << ": " << e.what() << "\n";
      continue;
    }
    if (!cx.accuracy_given) cx.accuracy = accuracy_class{};  // run_laws reads the plugin's own
    auto o = run_laws(cx);
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
    json laws_j = json::array();
    for (const auto& b : bases) laws_j.push(json::string(b));
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
  return j;
}

bool all_caught(const json& m) {
  const long n = m.find("mutants")->as_integer();
  return n > 0 && m.find("caught")->as_integer() == n;
}

}  // namespace pv::mutation
