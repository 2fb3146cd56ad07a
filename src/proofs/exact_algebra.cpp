// Attaches the exact-algebra proofs (Pythagorean instances and the grid
// argument for all angles) to rope.relative, flux.separate-offsets and
// sinusoid.linear-shift.
#include "algebraic.h"
#include "attach.h"
#include "claims/registry.h"
#include "pythagorean.h"

namespace {

using namespace pv::proofs;

pv::json algebraic_json(const std::vector<algebraic_result>& rs) {
  pv::json j = pv::json::array();
  for (const auto& r : rs) j.push(to_json(r));
  return j;
}

pv::json select(const std::vector<exact_law_result>& all, const std::string& prefix) {
  std::vector<exact_law_result> some;
  for (const auto& r : all)
    if (r.name.rfind(prefix, 0) == 0) some.push_back(r);
  return to_json(some);
}

}  // namespace

// The proofs do not depend on the run's seed: each is computed once per
// process (function-local statics) and copied into every report.
PV_CLAIM_PROOF("rope.relative", "exact algebra", [](const pv::claims::context&, pv::claim_result& r) {
  static const pv::json j = [] {
    pv::json o = pv::json::object();
    o.set("pythagorean", select(pythagorean_laws(), "RoPE"));
    o.set("all_angles", algebraic_json(rope_algebraic_laws()));
    return o;
  }();
  add_proof(r, "exact_algebra", j);
});
PV_CLAIM_PROOF("flux.separate-offsets", "exact algebra", [](const pv::claims::context&, pv::claim_result& r) {
  static const pv::json j = [] {
    pv::json o = pv::json::object();
    o.set("pythagorean", select(pythagorean_laws(), "FLUX"));
    o.set("all_angles", algebraic_json({flux_decomposition_law()}));
    return o;
  }();
  add_proof(r, "exact_algebra", j);
});
PV_CLAIM_PROOF("sinusoid.linear-shift", "exact algebra", [](const pv::claims::context&, pv::claim_result& r) {
  static const pv::json j = [] {
    pv::json o = pv::json::object();
    o.set("pythagorean", select(pythagorean_laws(), "sinusoid"));
    o.set("all_angles", algebraic_json(sinusoid_shift_laws()));
    return o;
  }();
  add_proof(r, "exact_algebra", j);
});
