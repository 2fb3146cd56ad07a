// flux.text_identity (CLAIMS.md "flux.text-identity"): FLUX.1 gives text
// tokens the position (0, 0, 0), and RoPE at position zero turns every pair by
// angle 0: text tokens are not rotated at all.
// Two judges, two tolerance rules:
//   - the property (src/properties/flux/text_identity.cpp) rotates with
//     pv::rope_apply in T, where every step is exact: equality
//     (tolerance_rule());
//   - the black-box check (src/blackbox/rope_laws.cpp, multi-axis
//     configurations) allows a kernel the rounding of cos 0, sin 0 and the
//     rotation's products (its rotation rounding rule, blackbox/rope_model.h).
// Before, the check called it "rope.flux.text_ids_identity" (laws/aliases.h);
// check_case_stream keeps its cases.
#pragma once

#include <string>

namespace pv::laws::text_identity {

inline constexpr const char* id = "flux.text_identity";

inline constexpr const char* check_case_stream = "rope.flux.text_ids_identity";

/// The property's statement.
inline std::string statement() {
  return "multi-axis RoPE at position (0, 0, 0), FLUX.1's text-token position, leaves every "
         "vector unchanged (FLUX.1's [16, 56, 56] or reduced layouts, either pairing)";
}

/// The black-box check's statement.
inline std::string check_statement() { return "text tokens (ids (0, 0, 0)) are left unchanged"; }

/// The property's rule.
inline std::string tolerance_rule() {
  return "exact equality in every type: the angle 0 * w is exactly 0, sin 0 = 0 and "
         "cos 0 = 1 exactly (glibc and MPFR), and x * 1 - y * 0 = x, x * 0 + y * 1 = y "
         "exactly; no rounding bound is needed";
}

}  // namespace pv::laws::text_identity
