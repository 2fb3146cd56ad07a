#include "blackbox/law_run.h"

#include "blackbox/declines.h"
#include "blackbox/nonfinite.h"
#include "sandbox/process_adapter.h"

#include "core/text.h"
#include "sandbox/half_formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace pv::blackbox {

law_run::law_run(const check_run& cx, std::string base_id, std::string dtype, std::string config,
                 std::string law, std::string tolerance)
    : cx_(cx) {
  r_.base_id = std::move(base_id);
  case_stream_ = r_.base_id;
  r_.dtype = std::move(dtype);
  if (cx.wire != PV_F32 && r_.dtype == "float32") r_.dtype = sandbox::dtype_name(cx.wire);
  r_.config = std::move(config);
  r_.id = r_.base_id + "[" + (r_.config.empty() ? "" : r_.config + "/") + r_.dtype + "]";
  r_.law = std::move(law);
  r_.tolerance = std::move(tolerance);
  r_.unit = cx.group >= 0 ? cx.group : cx.units->take();
  r_.seed = cx.seed;
}

bool law_run::selected() const { return cx_.units->mine(r_.unit) && asked_for(r_, cx_.only_law); }

std::vector<int> law_run::case_indices() const {
  std::vector<int> v;
  if (cx_.only_case >= 0) v.push_back(cx_.only_case);
  else
    for (int k = 0; k < cx_.cases; ++k) v.push_back(k);
  return v;
}

void law_run::run() {
  const std::size_t from = res_.size();
  // the calls not yet sent; all of them (the usual case) without a copy
  const std::vector<call> rest = from ? std::vector<call>(calls_.begin() + static_cast<long>(from), calls_.end())
                                      : std::vector<call>{};
  const std::vector<call>& todo = from ? rest : calls_;
  auto more = send(cx_, todo);
  for (std::size_t i = 0; i < more.size(); ++i) {
    const std::string d = declaration_of(todo[i], sent_dtype(cx_, todo[i]));  // in the dtype it travelled in
    if (more[i].st == status::unsupported) {
      if (more[i].detail != sandbox::kNotDeclared) ++r_.declined[d];
    } else if (more[i].st != status::not_run) {
      r_.ran.insert(d);
    }
    res_.push_back(std::move(more[i]));
  }
}

std::string law_run::replay_of(int k) const {
  return cx_.program + " check --impl " + text::shell_quote(cx_.lib.given) + sandbox::process_replay_flags() + " --seed " + std::to_string(cx_.seed) +
         " --max-position " + to_decimal(cx_.max_position) + rope_flags() + shape_flags() +
         (cx_.accuracy_given ? " --accuracy " + (cx_.accuracy.name.empty() ? std::string("float32") : cx_.accuracy.name)
                             : std::string()) + " --law '" + r_.id +
         "' --case " + std::to_string(k);
}

std::string law_run::shape_flags() const {
  std::string f = cx_.profile_given ? " --profile " + cx_.profile : std::string();
  for (const auto& s : cx_.shapes) f += " --shape " + s;
  for (const auto& s : cx_.attend_presets) f += " --attend-preset " + s;
  return f;
}

std::string law_run::rope_flags() const {
  if (rope_flags_known_) return rope_flags_;  // asked for at every new worst case: parsed once
  auto flag = [](const rope_cfg& rc) {
    for (const auto& [name, spec] : rope_presets())
      if (name == rc.name && spec == rc.spec) return " --rope-preset " + name;
    return " --rope-config " + text::shell_quote(rc.spec);
  };
  std::string f;
  for (const auto& rc : cx_.rope_configs) f += flag(rc);
  static const std::vector<rope_cfg> scaled = scaled_rope_configs();  // parsed once per process
  if (cx_.rope_configs.empty() && cx_.scaled_defaults)  // the mutation suite's extra configurations
    for (const auto& rc : scaled)
      if (rc.name == r_.config) f += flag(rc);
  rope_flags_ = f;
  rope_flags_known_ = true;
  return f;
}

void law_run::fail(int k, const std::string& msg, const std::function<std::string()>& describe) {
  if (failed()) return;
  r_.verdict = verdict::failed;
  r_.finding = "case " + std::to_string(k) + ": " + msg;
  r_.counterexample = describe ? describe() : "";
  r_.replay = replay_of(k);
  ++r_.cases;
}

void law_run::diagnose(const std::string& cause) {
  r_.extra.set("diagnosis", json::string(cause));
  r_.finding += "; diagnosis: " + cause;
}

bool law_run::calls_ok(int k, const std::vector<std::size_t>& idx,
                       const std::function<std::string()>& describe) {
  static const result none{};
  for (std::size_t pos = 0; pos < idx.size(); ++pos) {
    const std::size_t i = idx[pos];
    const result& R = i < res_.size() ? res_[i] : none;
    if (R.st == status::ok) continue;
    if (R.st == status::unsupported) {
      ++r_.unsupported;
      return false;
    }
    if (R.st == status::not_run) return false;
    const call& c = calls_[i];
    const bool first = !failed();
    fail(k, std::string(to_string(c.kind)) + "() call " + std::to_string(pos + 1) +
                " of the case: " + to_string(R.st) + (R.detail.empty() ? "" : ": " + R.detail),
         describe);
    // a NaN or infinity: probes at the call's shape say what in the scores brings it (only on this
    // failure, and not when the entry was never written: the finding names that cause already)
    if (first && R.st == status::non_finite && R.detail.find(sandbox::kNeverWritten) == std::string::npos)
      if (const std::string dg = diagnose_nonfinite(cx_, c, R.out); !dg.empty()) diagnose(dg);
    return false;
  }
  return true;
}

void law_run::each_case(
    const std::vector<int>& ks, std::size_t per,
    const std::function<std::string(std::size_t)>& describe,
    const std::function<bool(std::size_t, const describer&)>& check) {
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const describer desc = [&] { return describe(i); };
    std::vector<std::size_t> idx(per);
    for (std::size_t j = 0; j < per; ++j) idx[j] = per * i + j;
    if (!calls_ok(ks[i], idx, desc)) {
      if (failed()) break;
      continue;
    }
    if (!check(i, desc)) break;
    case_done();
  }
}

bool law_run::within(int k, const hp& error, const hp& bound, const std::string& where,
                     const std::function<std::string()>& describe) {
  return within(k, error, bound, [&where] { return where; }, describe);
}

bool law_run::within(int k, const hp& error, const hp& bound, const std::function<std::string()>& where_text,
                     const std::function<std::string()>& describe) {
  std::string where;
  hp ratio = bound > 0 ? hp(error / bound) : (error > 0 ? hp(1e300) : hp(0));
  hp worst = r_.worst_bound > 0 ? hp(r_.worst_error / r_.worst_bound)
                                : (r_.worst_error > 0 ? hp(1e300) : hp(0));
  bool recorded = false;
  if (!r_.has_worst || ratio > worst) {
    r_.has_worst = true;
    r_.worst_error = error;
    r_.worst_bound = bound;
    where = where_text();
    r_.worst_where = "case " + std::to_string(k) + ", " + where;
    r_.worst_replay = replay_of(k);
    worst = ratio;
    recorded = true;
  }
  if (error > r_.max_error) {
    r_.max_error = error;
    r_.max_error_bound = bound;
    recorded = true;
  }
  if (recorded) {  // (1 - 2^-40): below the MPFR figures whatever the rounding to binary64 (clearly_inside)
    max_error_below_ = convert<double>(r_.max_error) * (1 - 0x1p-40);
    worst_ratio_below_ = convert<double>(worst) * (1 - 0x1p-40);
  }
  if (error <= bound) return true;
  if (where.empty()) where = where_text();
  fail(k, where + ": |difference| = " + to_decimal(error) + " exceeds the tolerance " +
              to_decimal(bound),
       describe);
  return false;
}

bool law_run::first_look_holds(const hp& error, const hp& bound, double error_above, double bound_below) {
  // a NaN from MPFR is no disagreement: the judgement itself fails it
  if (isnan(error) || isnan(bound)) return true;
  return !(error > hp(error_above)) && !(bound_below >= 0 && bound < hp(bound_below));
}

law_result law_run::finish() {
  if (cx_.group < 0 && cx_.units->mine(r_.unit)) cx_.units->finished();
  const int wanted = std::min(cx_.min_cases, int(case_indices().size()));
  if (r_.verdict != verdict::failed && r_.cases > 0 && r_.cases < wanted) {
    r_.verdict = verdict::insufficient;
    r_.finding = "only " + std::to_string(r_.cases) + " of " + std::to_string(case_indices().size()) +
                 " cases evaluated: the library declined " + std::to_string(r_.unsupported) +
                 " (returned 1); --min-cases asks for " + std::to_string(wanted);
  } else if (r_.verdict != verdict::failed) {
    if (r_.cases > 0) r_.verdict = verdict::passed;
    else if (r_.unsupported > 0) r_.verdict = verdict::unsupported;
    else r_.verdict = verdict::not_run;
  }
  return r_;
}

}  // namespace pv::blackbox
