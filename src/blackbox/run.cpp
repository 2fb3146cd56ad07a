// The run of `posverify check`: every law of the library, on every dtype it
// supports (split out of check.cpp).
#include "blackbox/run.h"

#include "blackbox/declines.h"
#include "blackbox/law_run.h"
#include "blackbox/laws.h"
#include "sandbox/sandbox.h"
#include "core/files.h"
#include "core/shard.h"
#include "core/text.h"
#include "sandbox/half_formats.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>

namespace pv::blackbox {

void ensure_dir(const std::string& dir) { make_out_dir(dir, "--out"); }

namespace {

/// Advice is verified before it is given (a bfloat16 eager attention was
/// told to declare float16, and failed with it: plugins/panel/attn_bf16_eager.c). When a failed
/// law of `op` names accuracy classes its error is consistent with, the laws
/// of `op` run again in cx's format under each class in turn (the same seed
/// and cases, every case and unit, nothing printed, whatever --law and --case
/// chose); the first class under which none fails is advised, and the
/// diagnosis says what each recheck found. When none passes, no class is
/// advised.
void verify_advice(const check_run& cx, sandbox::op op, std::vector<law_result>& laws) {
  std::vector<std::string> classes;
  for (const auto& r : laws)
    if (r.verdict == verdict::failed)
      for (const auto& a : r.advise)
        if (std::find(classes.begin(), classes.end(), a) == classes.end()) classes.push_back(a);
  if (classes.empty()) return;
  // the shapes where a law failed (attention.shapes' rows): a class that
  // leaves one of them not bounded explains nothing there
  std::vector<std::pair<std::string, std::int64_t>> failed_at;
  for (const auto& r : laws)
    if (const json* rows = r.verdict == verdict::failed ? r.extra.find("shapes") : nullptr)
      for (const auto& row : rows->items())
        if (std::strtod(number_text(*row.second.find("worst_ratio")).c_str(), nullptr) > 1)
          failed_at.emplace_back(r.id, row.second.find("case")->as_integer());
  std::string said = "rechecked every " + std::string(sandbox::operation_of(op).name) + " law";
  bool advised = false;
  for (const auto& name : classes) {
    check_run c = recheck_of(cx);
    c.accuracy = parse_accuracy(name);
    c.accuracy_given = true;
    json sweep = json::array(), diagnosis = json::array();
    std::string still, unbounded;
    for (const law_group& g : law_groups())
      if (g.op == op)
        for (const auto& r : g.run(c, sweep, diagnosis)) {
          if (r.verdict == verdict::failed && still.empty()) still = r.id;
          if (const json* rows = r.extra.find("shapes"))
            for (const auto& row : rows->items())
              if (!row.second.find("bounded")->as_bool() &&
                  std::count(failed_at.begin(), failed_at.end(), std::pair(r.id, row.second.find("case")->as_integer())) &&
                  unbounded.empty())
                unbounded = r.id + " is not bounded at " + row.second.find("shape")->as_string() + " (" +
                            row.second.find("inputs")->as_string() + "), where it failed";
        }
    if (still.empty() && !unbounded.empty()) {
      said += "; with --accuracy " + name + " none fails, but " + unbounded + ": only finiteness is checked there";
      continue;
    }
    if (still.empty()) {
      said += "; with --accuracy " + name + " none fails: if the kernel is meant to compute so, declare it with --accuracy " + name;
      advised = true;
      break;
    }
    said += "; with --accuracy " + name + " " + still + " still fails";
  }
  if (!advised) said += "; no accuracy class explains the failure";
  for (auto& r : laws)
    if (r.verdict == verdict::failed && !r.advise.empty()) {
      r.finding += " (" + said + ")";
      const json* d = r.extra.find("diagnosis");
      r.extra.set("diagnosis", json::string((d ? d->as_string() : std::string()) + " (" + said + ")"));
    }
}

/// One pass over every law of cx.lib in cx's wire format: appends the laws,
/// the sweep and the diagnosis to o.
void run_in_format(const check_run& cx0, run_output& o) {
  check_run cx = cx0;
  if (!cx.units->count_only) cx.probed = probe_declarations(cx);  // declines.h
  json sweep = json::array(), diagnosis = json::array();
  std::vector<law_result> laws;
  const auto groups = law_groups();  // by operation, then rank
  for (std::size_t g = 0; g < groups.size();) {
    const sandbox::op op = groups[g].op;
    std::vector<law_result> rs;  // every law of the operation, then the advice rechecked once
    for (; g < groups.size() && groups[g].op == op; ++g)
      if (cx.lib.has(op))
        for (auto& r : groups[g].run(cx, sweep, diagnosis)) rs.push_back(std::move(r));
    const bool advice = std::any_of(rs.begin(), rs.end(), [](const law_result& r) { return !r.advise.empty(); });
    if (advice && !cx.units->count_only) verify_advice(cx, op, rs);
    for (auto& r : rs) laws.push_back(std::move(r));
  }
  judge_declines(laws, cx.probed.get());
  for (auto& r : laws) o.laws.push_back(std::move(r));
  for (const auto& kv : sweep.items()) o.sweep.push(kv.second);
  for (const auto& kv : diagnosis.items()) o.diagnosis.push(kv.second);
}

std::vector<law_group>& registered_groups() {
  static std::vector<law_group> groups;
  return groups;
}

}  // namespace

law_group_registrar::law_group_registrar(sandbox::op op, int rank, law_group_fn run) {
  registered_groups().push_back({op, rank, run});
}

std::vector<law_group> law_groups() {
  std::vector<law_group> g = registered_groups();
  std::stable_sort(g.begin(), g.end(), [](const law_group& a, const law_group& b) {
    return a.op != b.op ? a.op < b.op : a.rank < b.rank;
  });
  return g;
}

run_output run_laws(check_run& cx) {
  run_output o;
  o.lib = cx.lib;
  auto plan = std::make_shared<unit_plan>(*cx.units);  // units counted afresh (posverify/shard.h)
  plan->next = 0;
  plan->sweep_units.clear(), plan->diagnosis_units.clear();
  cx.units = plan;
  auto t0 = std::chrono::steady_clock::now();
  // the accuracy class: --accuracy, else what a version-2 plugin declares
  if (!cx.accuracy_given) cx.accuracy = parse_accuracy(cx.lib.accuracy);
  run_in_format(cx, o);
  // the 16-bit dtypes the kernel declares (impl.h, version 5; every one for a
  // server): the float32 laws in that format's accuracy
  for (pv_dtype w : {PV_F16, PV_BF16})
    if (cx.lib.offers(w)) {
      check_run c16 = cx;
      c16.wire = w;
      c16.float_only = true;
      const accuracy_class fmt = parse_accuracy(sandbox::dtype_name(w));
      if (c16.accuracy.u < fmt.u) c16.accuracy = fmt;
      run_in_format(c16, o);
    }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  o.units = plan->next, o.sweep_units = plan->sweep_units, o.diagnosis_units = plan->diagnosis_units;
  if (plan->spec.sharded())  // the laws of other shards were enumerated, not run
    o.laws.erase(std::remove_if(o.laws.begin(), o.laws.end(), [&](const law_result& r) { return !plan->mine(r.unit); }),
                 o.laws.end());
  for (const auto& r : o.laws)
    if (std::find(o.all_laws.begin(), o.all_laws.end(), r.base_id) == o.all_laws.end())
      o.all_laws.push_back(r.base_id);
  if (!cx.only_law.empty()) {  // leave out the laws that were not asked for
    std::vector<law_result> kept;
    for (auto& r : o.laws)
      if (asked_for(r, cx.only_law)) kept.push_back(std::move(r));
    o.laws = std::move(kept);
  }
  return o;
}

}  // namespace pv::blackbox
