// `posverify check --panel`: runs every law on every correct kernel of the
// panel, over many seeds and position ranges; reports/panel_report.h writes
// panel.json and panel.md from the record.
#include "mutation/panel.h"

#include "blackbox/run.h"

#include "blackbox/law_run.h"
#include "sandbox/sandbox.h"
#include "core/input.h"
#include "core/text.h"

#include <cstdio>
#include <iostream>
#include <map>
#include <stdexcept>

namespace pv::mutation {

using namespace pv::blackbox;  // the run and its laws

using pv::usage_error;

json run_panel(blackbox::check_run& cx, const std::vector<std::string>& libs, int seeds,
               const std::vector<double>& max_positions) {
  struct worst {
    double ratio = 0;
    std::string where;
    int runs = 0, failed = 0;
  };
  json rows = json::array();
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
      throw;
    }
    // a member is judged on every configuration it declares: one declaring
    // scaled speeds on the mutation suite's scaled ones too (rope_model.h)
    cx.scaled_defaults = (cx.lib.rope_caps & PV_ROPE_SCALED) != 0;
    std::map<std::string, worst> per_law;
    std::vector<std::string> order, failures;
    for (double mp : max_positions)
      for (int s = 0; s < seeds; ++s) {
        cx.seed = seed0 + std::uint64_t(s);
        cx.max_position = mp;
        auto o = run_laws(cx);
        for (const auto& r : o.laws) {
          if (r.verdict != verdict::passed && r.verdict != verdict::failed) continue;
          if (!per_law.count(r.base_id)) order.push_back(r.base_id);
          auto& w = per_law[r.base_id];
          ++w.runs;
          if (r.verdict == verdict::failed) {
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
    for (const auto& id : order) {
      const auto& w = per_law[id];
      json l = json::object();
      l.set("law", json::string(id));
      l.set("runs", json::integer(w.runs));
      l.set("failed", json::integer(w.failed));
      l.set("worst_ratio", json::number(to_decimal(w.ratio)));
      l.set("where", json::string(w.where));
      laws.push(l);
      if (w.ratio > 0.5) ++above_target;
    }
    row.set("laws", laws);
    json fj = json::array();
    for (const auto& f : failures) fj.push(json::string(f));
    row.set("false_alarms", fj);
    rows.push(row);
    false_alarms += int(failures.size());
    std::cout << (failures.empty() ? "  passed  " : "  FALSE ALARM  ") << cx.lib.name << "\n";
    for (const auto& f : failures) std::cout << "        " << f << "\n";
  }
  json j = json::object();
  j.set("tool", json::string("posverify"));
  j.set("version", json::string(POSVERIFY_VERSION));
  j.set("seed", json::string(std::to_string(seed0)));
  j.set("seeds", json::integer(seeds));
  j.set("cases", json::integer(cx.cases));
  json mps = json::array();
  for (double m : max_positions) mps.push(json::number(to_decimal(m)));
  j.set("max_positions", mps);
  j.set("false_alarms", json::integer(false_alarms));
  j.set("laws_above_target", json::integer(above_target));
  j.set("members", rows);
  return j;
}

bool no_false_alarm(const json& panel) { return panel.find("false_alarms")->as_integer() == 0; }

}  // namespace pv::mutation
