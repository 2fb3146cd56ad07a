// `posverify check --panel`: the panel of correct implementations (split out
// of check.cpp).
#include "check/check_run.h"

#include "check/law.h"
#include "check/sandbox.h"
#include "cli/options.h"
#include "posverify/report.h"
#include "posverify/text.h"

#include <cstdio>
#include <iostream>
#include <map>
#include <stdexcept>

namespace pv::check {

using cli::usage_error;

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

}  // namespace pv::check
