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
#include <memory>

namespace pv::blackbox {

void ensure_dir(const std::string& dir) { make_out_dir(dir, "--out"); }

namespace {

/// One pass over every law of cx.lib in cx's wire format: appends the laws,
/// the sweep and the diagnosis to o.
void run_in_format(const check_run& cx0, run_output& o) {
  check_run cx = cx0;
  if (!cx.units->count_only) cx.probed = probe_declarations(cx);  // declines.h
  json sweep = json::array(), diagnosis = json::array();
  std::vector<law_result> laws;
  for (const law_group& g : law_groups())
    if (cx.lib.has(g.op))
      for (auto& r : g.run(cx, sweep, diagnosis)) laws.push_back(std::move(r));
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
  if (cx.lib.abi_version >= 2)  // the 16-bit dtypes: the float32 laws in that format's accuracy
    for (pv_dtype w : {PV_F16, PV_BF16}) {
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
