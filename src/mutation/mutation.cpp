// `posverify check --mutation`: runs every law on every mutant (plugins/mutants/)
// and records which law caught it first; reports/mutation_report.h writes
// mutation.json and mutation.md from the record.
#include "mutation/mutation.h"

#include "blackbox/run.h"

#include "blackbox/law_run.h"
#include "laws/attend/models.h"
#include "sandbox/sandbox.h"
#include "core/text.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace pv::mutation {

using namespace pv::blackbox;  // the run and its laws

json mutation_row(blackbox::check_run& cx, const std::string& lib) {
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
    return row;
  }
  if (!cx.accuracy_given) cx.accuracy = accuracy_class{};  // run_laws reads the plugin's own
  auto o = run_laws(cx);
  // an attention mutant no law of the run catches is checked again at the shapes of real models
  // (attend.models under --profile models): a bug of long caches and prefills shows only there
  bool at_scale = false;
  std::size_t run_before = 0;
  const auto failed = [](const auto& laws) {
    return std::any_of(laws.begin(), laws.end(), [](const law_result& r) { return r.verdict == verdict::failed; });
  };
  // attend.models alone, or the ids of it that --law names (a prefix of them runs them all)
  const std::string scale_law = laws::attend_models::id;
  std::vector<std::string> scale_ids;
  for (const auto& p : cx.only_law)
    if (p.rfind(scale_law, 0) == 0) scale_ids.push_back(p);
    else if (scale_law.rfind(p, 0) == 0) scale_ids = {scale_law};
  if (cx.only_law.empty()) scale_ids = {scale_law};
  if (!failed(o.laws) && cx.profile != "models" && cx.attend_presets.empty() && cx.lib.has(sandbox::op::attend) &&
      !scale_ids.empty()) {
    check_run m = cx;
    m.profile = "models";
    m.only_law = scale_ids;
    auto big = run_laws(m);
    if (failed(big.laws)) {
      run_before = o.laws.size();  // every law of the run passed on it
      big.seconds += o.seconds;
      o = std::move(big);
      at_scale = true;
    }
  }
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
  if (at_scale) row.set("profile", json::string("models"));
  row.set("laws_run", json::integer(long(o.laws.size() + run_before)));
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.3f", o.seconds);
  row.set("seconds", json::number(secs));
  return row;
}

void print_mutation_row(const json& row) {
  const std::string name = row.find("mutant")->as_string();
  if (const json* e = row.find("error")) {
    std::cout << "  ??    " << name << ": " << e->as_string() << "\n";
    return;
  }
  const bool caught = row.find("caught")->as_bool();
  std::cout << (caught ? "  caught   " : "  SURVIVED ") << name;
  if (caught)
    std::cout << "  by " << row.find("caught_by")->as_string()
              << (row.find("profile") ? " (--profile models only)" : "") << " after " << row.find("cases")->as_integer()
              << " cases: " << text::visible(row.find("finding")->as_string());
  std::cout << "\n";
}

json mutation_record(const blackbox::check_run& cx, const std::vector<json>& given) {
  json rows = json::array();
  long caught = 0;
  for (const auto& r : given) {
    rows.push(r);
    if (r.find("caught")->as_bool()) ++caught;
  }
  const std::size_t n = given.size();
  json j = json::object();
  j.set("tool", json::string("posverify"));
  j.set("version", json::string(POSVERIFY_VERSION));
  j.set("seed", json::string(std::to_string(cx.seed)));
  j.set("cases", json::integer(cx.cases));
  j.set("mutants", json::integer(long(n)));
  j.set("caught", json::integer(caught));
  j.set("score", json::number(to_decimal(n == 0 ? 0.0 : double(caught) / double(n))));
  j.set("rows", rows);
  return j;
}

json run_mutation(blackbox::check_run& cx, const std::vector<std::string>& libs) {
  std::vector<json> rows;
  for (const auto& lib : libs) {
    rows.push_back(mutation_row(cx, lib));
    print_mutation_row(rows.back());
  }
  return mutation_record(cx, rows);
}

bool all_caught(const json& m) {
  const long n = m.find("mutants")->as_integer();
  return n > 0 && m.find("caught")->as_integer() == n;
}

}  // namespace pv::mutation
