#include "properties/runner.h"

#include "properties/reproduce.h"
#include "core/seeded.h"

#include <rapidcheck/detail/Results.hpp>

#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace pv::prop {

std::vector<property_def>& property_registry() {
  static std::vector<property_def> r;
  return r;
}

const property_def* find_property(const std::string& id) {
  for (const auto& p : property_registry())
    if (p.id == id) return &p;
  return nullptr;
}

std::uint64_t property_seed(std::uint64_t seed, const std::string& id) {
  // FNV-1a of the id, mixed with the seed by the splitmix64 finaliser
  return seeded(seed + fnv1a(id)).next();
}

namespace {

class quiet_listener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

}  // namespace

// RC_FAIL would prefix this file's name and line to every message; the
// message itself names the law, the type and the figures.
void fail(const std::string& message) {
  throw rc::detail::CaseResult(rc::detail::CaseResult::Type::Failure, message);
}

property_result run_property(const property_def& p, const run_options& o) {
  property_result r;
  r.id = p.id;
  r.law = p.law;
  r.tolerance = p.tolerance;
  const std::uint64_t seed = property_seed(o.seed, p.id);
  r.seed = std::to_string(seed);

  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = o.cases;
  params.maxSize = o.max_size > 100 ? 100 : o.max_size;
  params.maxDiscardRatio = 10;
  rc::detail::TestMetadata meta;
  meta.id = p.id;
  meta.description = p.law;
  // An explicit reproduce map: a leaked RC_PARAMS=reproduce=... cannot
  // replace the run with one old case.
  std::unordered_map<std::string, rc::detail::Reproduce> repro;
  if (!o.reproduce.empty()) repro[p.id] = decode_reproduce(o.reproduce, params.maxSize);
  quiet_listener listener;
  auto result = rc::detail::checkProperty(p.make(), meta, params, listener, repro);

  if (result.is<rc::detail::SuccessResult>()) {
    const auto& ok = result.get<rc::detail::SuccessResult>();
    r.verdict = verdict::passed;
    r.cases = ok.numSuccess;
    // What the cases covered (RC_TAG / RC_CLASSIFY), as QuickCheck's cover.
    if (!ok.distribution.empty()) {
      json cover = json::object();
      for (const auto& [tags, count] : ok.distribution) {
        std::string key;
        for (const auto& t : tags) key += (key.empty() ? "" : ", ") + t;
        cover.set(key.empty() ? "(untagged)" : key, json::integer(count));
      }
      r.extra.set("coverage", cover);
    }
  } else if (result.is<rc::detail::FailureResult>()) {
    const auto& f = result.get<rc::detail::FailureResult>();
    r.verdict = verdict::failed;
    r.cases = f.numSuccess;
    std::ostringstream ce;
    for (const auto& kv : f.counterExample) ce << kv.first << " = " << kv.second << "\n";
    ce << f.description;
    r.counterexample = ce.str();
    r.replay = o.program + " replay " + p.id + " " + encode_reproduce(f.reproduce);
    r.extra.set("rerun", json::string(o.program + " verify --property " + p.id + " --seed " +
                                      std::to_string(o.seed) + " --cases " + std::to_string(o.cases)));
  } else if (result.is<rc::detail::GaveUpResult>()) {
    const auto& g = result.get<rc::detail::GaveUpResult>();
    r.verdict = verdict::gave_up;
    r.cases = g.numSuccess;
    r.counterexample = g.description;
  } else {
    // With a reproduce string, RapidCheck answers with an error when the
    // replayed case passes: say so instead of a bare "error".
    r.verdict = o.reproduce.empty() ? verdict::error : verdict::not_reproduced;
    r.counterexample = result.get<rc::detail::Error>().description;
  }
  return r;
}

}  // namespace pv::prop
