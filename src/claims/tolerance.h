// Tolerances at the reference precision: every multiple of u that a claim
// compares against is either derived (and says from which formula) or
// declared slack (and says over what estimate, and why it is not derived).
// The claim's record keeps each under extra["tolerances"][name].
#pragma once

#include "claims/values.h"
#include "core/results.h"
#include "reference/mp.h"

#include <string>

namespace pv::claims {

enum class tol_kind {
  derived,         ///< the bound of a stated error analysis
  declared_slack,  ///< a margin over an estimate; the reason says why it is not derived
};

/// Returns units * u (u the reference's unit roundoff) and records it in
/// r.extra["tolerances"][name] = {units_of_u, kind, why}.
inline hp ref_tolerance(claim_result& r, const std::string& name, const hp& units, tol_kind kind,
                        const std::string& why) {
  json all = json::object();
  if (const json* t = r.extra.find("tolerances")) all = *t;
  json o = json::object();
  o.set("units_of_u", dec(units));
  o.set("kind", json::string(kind == tol_kind::derived ? "derived" : "declared slack"));
  o.set("why", json::string(why));
  all.set(name, o);
  r.extra.set("tolerances", all);
  return units * ref::unit_roundoff();
}

}  // namespace pv::claims
