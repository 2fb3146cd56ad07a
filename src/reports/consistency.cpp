#include "reports/consistency.h"

#include "blackbox/law_result.h"
#include "core/json_read.h"
#include "laws/aliases.h"
#include "core/results_fields.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace pv::reports {

namespace {

[[noreturn]] void contradiction(const std::string& where, const std::string& field, const std::string& why) {
  throw std::runtime_error(fields::at(where, field) + ": " + why + ": the report contradicts itself");
}

/// Whether record `o` has `key` with a value other than null.
bool present(const json& o, const char* key) {
  const json* v = o.find(key);
  return v && !v->is_null();
}

/// The rules of one law's record `o` (read back as `r`) of verdict v.
void check_law(const blackbox::law_result& r, const json& o, const std::string& where) {
  const std::string v = std::string("verdict \"") + to_string(r.verdict) + "\"";
  if (r.verdict == verdict::failed) {  // fail(): the case, its inputs and the command that replays it
    if (r.finding.empty()) contradiction(where, "finding", "null under " + v + " (a failure says what went wrong)");
    if (!present(o, "counterexample"))
      contradiction(where, "counterexample", "null under " + v + " (a failure keeps its inputs)");
    if (r.replay.empty()) contradiction(where, "replay", "null under " + v + " (a failure names its replay)");
    if (r.cases < 1) contradiction(where, "cases", "0 under " + v + " (the failing case counts)");
    return;
  }
  // only a failed law writes these (blackbox/law_result.h: when_failed)
  for (const char* key : {"counterexample", "replay"})
    if (present(o, key)) contradiction(where, key, "set under " + v + " (only a failed law has one)");
  if (present(o, "diagnosis"))
    contradiction(where, "diagnosis", "set under " + v + " (only a failed law is diagnosed)");
  // every case within its tolerance, or the law would have failed (law_run::within)
  if (r.has_worst && !(r.worst_error <= r.worst_bound))
    contradiction(where, "worst.error", ref::to_decimal(r.worst_error) + " exceeds worst.bound " +
                                            ref::to_decimal(r.worst_bound) + " under " + v +
                                            " (a case beyond its tolerance fails the law)");
  if (r.has_worst && !(r.max_error <= r.max_error_bound))
    contradiction(where, "worst.max_error", ref::to_decimal(r.max_error) + " exceeds worst.max_error_bound " +
                                                ref::to_decimal(r.max_error_bound) + " under " + v +
                                                " (a case beyond its tolerance fails the law)");
  switch (r.verdict) {
    case verdict::passed:
      if (r.cases < 1) contradiction(where, "cases", "0 under " + v + " (a pass evaluated a case)");
      // a pass says something only where a shape was not bounded (blackbox/shapes.cpp)
      if (!r.finding.empty() && !r.extra.find("not_bounded_at"))
        contradiction(where, "finding", "set under " + v + " (a pass has no finding)");
      break;
    case verdict::insufficient:
      if (r.finding.empty()) contradiction(where, "finding", "null under " + v + " (it says how few cases ran)");
      break;
    case verdict::unsupported:
    case verdict::not_run:
      if (r.cases != 0)
        contradiction(where, "cases", std::to_string(r.cases) + " under " + v + " (no case was evaluated)");
      break;
    default:
      contradiction(where, "verdict", "\"" + std::string(to_string(r.verdict)) + "\" is not a law's verdict");
  }
}

/// Whether --law prefix `o` asked for law r: its id starts with it, or the id
/// it had before a rename does (laws/aliases.h), as the run selects it
/// (blackbox/law_run.h, asked_for): `--law rope` runs the flux.* laws,
/// formerly rope.flux.*. The report does not carry the former id; the alias
/// table gives it.
bool asked(const blackbox::law_result& r, const std::string& o) {
  if (r.id.rfind(o, 0) == 0) return true;
  if (r.id.rfind(r.base_id, 0) != 0) return false;
  for (const laws::alias& a : laws::aliases)
    if (r.base_id == a.current_id && (a.old_id + r.id.substr(r.base_id.size())).rfind(o, 0) == 0) return true;
  return false;
}

}  // namespace

void check_consistent_check_report(const json& report, const std::string& file) {
  const auto laws = fields::read_list(report, "laws", blackbox::law_fields(), file);
  const std::uint64_t seed = laws.empty() ? 0 : json_read::seed_of(report, file);
  std::vector<std::string> only;  // --law, when the run had it: one prefix, or an array of them
  if (const json* opt = report.find("options"))
    if (const json* l = opt->find("law")) {
      if (l->type() == json::kind::string) only.push_back(l->as_string());
      if (l->type() == json::kind::array)
        for (const auto& kv : l->items())
          if (kv.second.type() == json::kind::string) only.push_back(kv.second.as_string());
    }
  std::string only_text;
  for (const auto& o : only) only_text += (only_text.empty() ? "\"" : ", \"") + o + "\"";
  std::map<std::string, long> count;   // verdict -> laws
  std::set<std::string> ids, failed;  // the ids; the configurations with a failed law
  for (std::size_t i = 0; i < laws.size(); ++i) {
    const auto& r = laws[i];
    const std::string where = file + ": laws[" + std::to_string(i) + "] (" + r.id + ")";
    if (!ids.insert(r.id).second) contradiction(where, "id", "listed twice");
    if (!only.empty() && std::none_of(only.begin(), only.end(), [&](const std::string& o) { return asked(r, o); }))
      contradiction(where, "id", "not a law of options.law " + only_text + ", the only laws the run asked for");
    if (r.seed != seed)
      contradiction(where, "seed", std::to_string(r.seed) + ", the run's is " + std::to_string(seed));
    check_law(r, report.find("laws")->items()[i].second, where);
    ++count[to_string(r.verdict)];
    if (r.verdict == verdict::failed) failed.insert(r.config);
  }
  // the summary counts the laws listed (reports/check_report.cpp: report_json)
  if (const json* sum = report.find("summary")) {
    if (sum->type() != json::kind::object)
      throw std::runtime_error(file + ": summary: expected an object, got " + fields::kind_name(sum->type()));
    for (const auto& [key, n] : sum->items()) {
      const auto it = count.find(key);
      const long listed = it == count.end() ? 0 : it->second;
      if (n.type() != json::kind::integer || n.as_integer() != listed)
        contradiction(file + ": summary", key,
                      number_text(n) + ", but " + std::to_string(listed) + " laws listed are " + key);
    }
    for (const auto& [key, n] : count)
      if (!sum->find(key))
        contradiction(file + ": summary", key, "missing, but " + std::to_string(n) + " laws listed are " + key);
  }
  // a configuration is diagnosed only when one of its laws failed (blackbox/rope_laws.cpp)
  if (const json* dg = report.find("diagnosis"); dg && dg->type() == json::kind::array)
    for (std::size_t i = 0; i < dg->size(); ++i) {
      const std::string config = json_read::text(dg->items()[i].second, "config");
      if (!failed.count(config))
        contradiction(file + ": diagnosis[" + std::to_string(i) + "]", "config",
                      "\"" + config + "\" is diagnosed, but no law of it failed");
    }
}

void check_consistent_verify_report(const json& report, const std::string& file) {
  const auto props = fields::read_list(report, "properties", property_fields(), file);
  std::set<std::string> ids;
  for (std::size_t i = 0; i < props.size(); ++i) {
    const auto& p = props[i];
    const std::string where = file + ": properties[" + std::to_string(i) + "] (" + p.id + ")";
    const std::string v = std::string("verdict \"") + to_string(p.verdict) + "\"";
    if (!ids.insert(p.id).second) contradiction(where, "id", "listed twice");
    // properties/runner.cpp: a failure has both, a pass neither, the rest no replay
    if (p.verdict == verdict::failed) {
      if (!p.counterexample) contradiction(where, "counterexample", "null under " + v + " (a failure keeps its case)");
      if (!p.replay) contradiction(where, "replay", "null under " + v + " (a failure names its replay)");
    } else {
      if (p.replay) contradiction(where, "replay", "set under " + v + " (only a failed property has one)");
      if (p.verdict == verdict::passed && p.counterexample)
        contradiction(where, "counterexample", "set under " + v + " (a pass has none)");
    }
  }
}

}  // namespace pv::reports
