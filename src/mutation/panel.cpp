// `posverify check --panel`: runs every law on every correct kernel of the
// panel, over many seeds and position ranges; reports/panel_report.h writes
// panel.json and panel.md from the record.
#include "mutation/panel.h"

#include "blackbox/run.h"

#include "blackbox/law_run.h"
#include "sandbox/sandbox.h"
#include "core/input.h"
#include "core/text.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <stdexcept>

namespace pv::mutation {

using namespace pv::blackbox;  // the run and its laws

using pv::usage_error;

namespace {

struct worst {
  double ratio = 0;
  std::string where;
  int runs = 0, failed = 0;
};

/// A law's row of a member: its runs, failures and worst ratio, and where.
json law_row(const std::string& id, const worst& w) {
  json l = json::object();
  l.set("law", json::string(id));
  l.set("runs", json::integer(w.runs));
  l.set("failed", json::integer(w.failed));
  l.set("worst_ratio", json::number(to_decimal(w.ratio)));
  l.set("where", json::string(w.where));
  return l;
}

}  // namespace

std::vector<double> position_ranges(const sandbox::impl_info& lib, const std::vector<double>& max_positions) {
  if (max_positions.empty() || lib.has(sandbox::op::rope) || lib.has(sandbox::op::sinusoid)) return max_positions;
  return {max_positions.front()};
}

std::string member_library(const std::string& given) { return given.substr(0, given.rfind('@')); }

json panel_member(blackbox::check_run& cx, const std::string& given, int seeds,
                  const std::vector<double>& max_positions) {
  const std::uint64_t seed0 = cx.seed;
  // LIB.so@CLASS: a member whose arithmetic is coarser than its interface (--accuracy CLASS)
  const auto at = given.rfind('@');
  const std::string lib = member_library(given);
  try {
    cx.accuracy = parse_accuracy(at == std::string::npos ? "" : given.substr(at + 1));
    cx.accuracy_given = at != std::string::npos;
  } catch (const std::invalid_argument& e) {
    throw usage_error(std::string(e.what()) + " (in --panel entry '" + given + "')");
  }
  cx.lib = probe_library(lib, cx.ro.timeout_ms);
  // a member is judged on every configuration it declares: one declaring
  // scaled speeds on the mutation suite's scaled ones too (rope_model.h)
  cx.scaled_defaults = (cx.lib.rope_caps & PV_ROPE_SCALED) != 0;
  std::map<std::string, worst> per_law;
  std::vector<std::string> order, failures;
  const std::vector<double> ranges = position_ranges(cx.lib, max_positions);
  for (double mp : ranges)
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
  json mps = json::array();
  for (double m : ranges) mps.push(json::number(to_decimal(m)));
  row.set("max_positions", mps);
  json laws = json::array();
  for (const auto& id : order) laws.push(law_row(id, per_law[id]));
  row.set("laws", laws);
  json fj = json::array();
  for (const auto& f : failures) fj.push(json::string(f));
  row.set("false_alarms", fj);
  return row;
}

json join_member_parts(const std::vector<json>& parts) {
  if (parts.empty()) throw std::invalid_argument("join_member_parts: no part");
  std::map<std::string, worst> per_law;
  std::vector<std::string> order;
  json failures = json::array(), mps = json::array();
  std::vector<std::string> ranges;  // the parts' position ranges, in order, once each
  for (const auto& p : parts) {
    if (const json* m = p.find("max_positions"))
      for (const auto& kv : m->items())
        if (std::find(ranges.begin(), ranges.end(), number_text(kv.second)) == ranges.end()) {
          ranges.push_back(number_text(kv.second));
          mps.push(kv.second);
        }
    for (const auto& kv : p.find("laws")->items()) {
      const json& l = kv.second;
      const std::string id = l.find("law")->as_string();
      if (!per_law.count(id)) order.push_back(id);
      auto& w = per_law[id];
      w.runs += int(l.find("runs")->as_integer());
      w.failed += int(l.find("failed")->as_integer());
      // panel_member keeps the last of equal ratios, and "where" is empty
      // only when the part measured none: the same choice over the parts
      const std::string where = l.find("where")->as_string();
      const double q = std::strtod(number_text(*l.find("worst_ratio")).c_str(), nullptr);
      if (!where.empty() && q >= w.ratio) w.ratio = q, w.where = where;
    }
    for (const auto& kv : p.find("false_alarms")->items()) failures.push(kv.second);
  }
  json row = json::object();
  for (const char* k : {"member", "library", "accuracy"}) row.set(k, *parts.front().find(k));
  row.set("max_positions", mps);
  json laws = json::array();
  for (const auto& id : order) laws.push(law_row(id, per_law[id]));
  row.set("laws", laws);
  row.set("false_alarms", failures);
  return row;
}

void print_panel_member(const json& member) {
  const json& fa = *member.find("false_alarms");
  std::cout << (fa.size() == 0 ? "  passed  " : "  FALSE ALARM  ") << member.find("member")->as_string() << "\n";
  for (const auto& kv : fa.items()) std::cout << "        " << kv.second.as_string() << "\n";
}

json panel_record(const blackbox::check_run& cx, int seeds, const std::vector<double>& max_positions,
                  const std::vector<json>& members) {
  json rows = json::array();
  long false_alarms = 0, above_target = 0;
  for (const auto& m : members) {
    rows.push(m);
    false_alarms += long(m.find("false_alarms")->size());
    for (const auto& kv : m.find("laws")->items())  // the ratio as written: to_decimal round-trips
      if (std::strtod(number_text(*kv.second.find("worst_ratio")).c_str(), nullptr) > 0.5) ++above_target;
  }
  json j = json::object();
  j.set("tool", json::string("posverify"));
  j.set("version", json::string(POSVERIFY_VERSION));
  j.set("seed", json::string(std::to_string(cx.seed)));
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

json run_panel(blackbox::check_run& cx, const std::vector<std::string>& libs, int seeds,
               const std::vector<double>& max_positions) {
  std::vector<json> members;
  for (const auto& given : libs) {
    members.push_back(panel_member(cx, given, seeds, max_positions));
    print_panel_member(members.back());
  }
  return panel_record(cx, seeds, max_positions, members);
}

bool no_false_alarm(const json& panel) { return panel.find("false_alarms")->as_integer() == 0; }

}  // namespace pv::mutation
