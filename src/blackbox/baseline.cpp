#include "blackbox/baseline.h"

#include "core/files.h"
#include "laws/aliases.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace pv::blackbox {

using pv::usage_error;

namespace {

using fields::kind_name;

bool is_number(const json& j) { return j.type() == json::kind::integer || j.type() == json::kind::number; }

struct field_validator {
  const std::string& path;
  [[noreturn]] void bad(const std::string& field, const std::string& why) const {
    throw usage_error("--baseline '" + path + "': " + field + ": " + why);
  }
  /// A whole-number option: validated exactly as on the command line, with
  /// the label naming the file and the field.
  std::uint64_t option(const json& v, const std::string& field, const pv::u64_option& opt,
                       bool string_ok) const {
    if (!is_number(v) && !(string_ok && v.type() == json::kind::string))
      bad(field, std::string("expected a whole number, got ") + kind_name(v.type()));
    return pv::parse_u64("--baseline '" + path + "': " + field + " (as " + opt.flag + ")",
                          number_text(v), opt.lo, opt.hi);
  }
  /// A finite figure >= 0 (an error or a ratio).
  void figure(const json& v, const std::string& field) const {
    if (!is_number(v)) bad(field, std::string("expected a number, got ") + kind_name(v.type()));
    const hp x = ref::parse(number_text(v));
    if (!boost::multiprecision::isfinite(x) || x < 0)
      bad(field, "'" + number_text(v) + "' is not a finite number >= 0");
  }
};

}  // namespace

std::string read_text(const std::string& path, const std::string& flag, std::size_t max_bytes) {
  try {  // a regular file only: a FIFO is refused at once, not waited on
    return read_regular_file(path, max_bytes);
  } catch (const std::runtime_error& e) {
    throw usage_error(flag + ": " + e.what());
  }
}

baseline parse_baseline(const std::string& text, const std::string& path) {
  const field_validator ck{path};
  baseline b;
  b.path = path;
  try {
    b.doc = json::parse(text);
  } catch (const std::runtime_error& e) {
    throw usage_error("--baseline '" + path + "' is not valid JSON: " + e.what());
  }
  if (b.doc.type() != json::kind::object)
    ck.bad("the top level", std::string("expected an object, got ") + kind_name(b.doc.type()));
  if (const json* s = b.doc.find("seed")) b.seed = ck.option(*s, "seed", seed_option, true);
  if (const json* o = b.doc.find("options")) {
    if (o->type() != json::kind::object)
      ck.bad("options", std::string("expected an object, got ") + kind_name(o->type()));
    if (const json* c = o->find("cases")) b.cases = ck.option(*c, "options.cases", cases_option, false);
    if (const json* m = o->find("max_position"))
      b.max_position = ck.option(*m, "options.max_position", max_position_option, false);
  }
  const json* laws = b.doc.find("laws");
  if (!laws) ck.bad("laws", "missing (not a posverify check report)");
  if (laws->type() != json::kind::array)
    ck.bad("laws", std::string("expected an array, got ") + kind_name(laws->type()));
  for (std::size_t i = 0; i < laws->size(); ++i) {
    const json& r = laws->items()[i].second;
    const std::string at = "laws[" + std::to_string(i) + "]";
    if (r.type() != json::kind::object) ck.bad(at, std::string("expected an object, got ") + kind_name(r.type()));
    // the fields a comparison reads, checked as posverify merge reads them
    // (law_fields(), blackbox/law_result.h); a baseline may leave out the others
    try {
      law_fields().check(r, "id", at, true);
      law_fields().check(r, "verdict", at, true);
      const json* w = r.find("worst");
      if (!w || w->is_null()) continue;
      if (w->type() != json::kind::object)
        fields::bad(at, "worst", std::string("expected an object or null, got ") + kind_name(w->type()));
      law_json_fields::worst().check(*w, "max_error", at + ".worst", false);
    } catch (const std::runtime_error& e) {
      throw usage_error("--baseline '" + path + "': " + e.what());
    }
    const json* w = r.find("worst");
    for (const char* f : {"max_error", "ratio"})
      if (const json* v = w->find(f)) ck.figure(*v, at + ".worst." + f);
  }
  return b;
}

baseline load_baseline(const std::string& path) {
  return parse_baseline(read_text(path, "--baseline", max_baseline_bytes), path);
}

json compare(const baseline& base, const std::vector<law_result>& now, const std::vector<std::string>& asked) {
  json regs = json::array();
  std::map<std::string, const law_result*> cur;
  for (const auto& r : now) cur[r.id] = &r;
  for (const auto& kv : base.doc.find("laws")->items()) {  // shape checked by parse_baseline
    const json& b = kv.second;
    // a law renamed since the baseline was written is compared under its id today
    const std::string& saved_id = b.find("id")->as_string();
    const std::string current = laws::current_id(saved_id);
    const std::string shown =
        "`" + current + "`" + (current == saved_id ? std::string() : " (`" + saved_id + "` in the baseline)");
    if (*parse_verdict(b.find("verdict")->as_string()) != verdict::passed) continue;  // checked by parse_baseline
    if (!asked.empty() && std::none_of(asked.begin(), asked.end(), [&](const std::string& p) {
          return current.rfind(p, 0) == 0 || saved_id.rfind(p, 0) == 0;
        }))
      continue;  // --law left it out of this run
    auto it = cur.find(current);
    if (it == cur.end() || it->second->verdict != verdict::passed) {
      std::string now_v = it == cur.end() ? "absent" : to_string(it->second->verdict);
      regs.push(json::string(shown + " held in the baseline and now is " + now_v +
                             (it != cur.end() && !it->second->finding.empty() ? ": " + it->second->finding : "")));
      continue;
    }
    const json* w = b.find("worst");
    if (!w || w->is_null() || !it->second->has_worst) continue;
    // margin: an error figure -- the largest |difference| of the law, or the
    // largest ratio of a difference to its tolerance -- regresses when it more
    // than doubles and grows by more than 1 % of the tolerance
    const law_result& L = *it->second;
    const json* me = w->find("max_error");
    const json* ra = w->find("ratio");
    if (me) {
      hp old_max = ref::parse(number_text(*me));
      if (L.max_error > 2 * old_max && L.max_error - old_max > L.max_error_bound / 100)
        regs.push(json::string(shown + ": largest error grew from " + ref::to_decimal(old_max, 6) +
                               " to " + ref::to_decimal(L.max_error, 6) + " (tolerance there " +
                               ref::to_decimal(L.max_error_bound, 6) +
                               "; margin: more than 2x and by more than 1 % of the tolerance)"));
    }
    if (ra && L.worst_bound > 0) {
      hp old_ratio = ref::parse(number_text(*ra)), new_ratio = L.worst_error / L.worst_bound;
      if (new_ratio > 2 * old_ratio && new_ratio - old_ratio > hp(0.01))
        regs.push(json::string(shown + ": worst error/tolerance ratio grew from " +
                               ref::to_decimal(old_ratio, 4) + " to " + ref::to_decimal(new_ratio, 4) +
                               " at " + L.worst_where + " (margin: more than 2x and by more than 0.01)"));
    }
  }
  return regs;
}

}  // namespace pv::blackbox
