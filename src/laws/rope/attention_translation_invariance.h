// rope.attention_translation_invariance (the chapter's "rope.relative", FLUX
// "flux.separate-offsets"): RoPE attention sees positions only through their
// differences, so shifting every position by the same s (per axis for
// multi-axis RoPE) leaves the whole self-attention output unchanged.
//
// The law body, shared: per output entry, |out(p) - out(p + s)| against the
// sum of the two outputs' bounds (the exact outputs are equal, each computed
// one is within its own bound of its exact value): compare_entry().
// Two tolerance rules, because the judges know different things:
//   - the property (src/properties/rope/attention_translation_invariance.cpp)
//     computes the attention itself with pv::rope_self_attention, so each
//     output has its a-priori forward bound (attention_forward_bound with the
//     rotation errors of rope_apply_error as input errors):
//     forward_tolerance_rule();
//   - the black-box check (src/blackbox/rope_laws.cpp) sees only a kernel's
//     rotated rows; it computes the attention exactly in MPFR from them, so
//     only the rotation errors count, through the scores:
//     (e^{2 D_i} - 1) e^{2 D_i} sum_j p_ij |x_jc| (kernel_entry_bound(),
//     kernel_tolerance_rule()). Before, the check called this law
//     "rope.attention_translation" (laws/aliases.h); check_case_stream keeps
//     its cases.
#pragma once

#include "numerics/scalar.h"

#include <string>

namespace pv::laws::attention_translation_invariance {

inline constexpr const char* id = "rope.attention_translation_invariance";

/// The black-box check's case stream: the one it had under its old id
/// (law_run seeds a law's cases from it), so saved reports' replay commands
/// still meet the same cases.
inline constexpr const char* check_case_stream = "rope.attention_translation";

inline std::string statement() {
  return "RoPE self-attention (queries and keys rotated, values not) is unchanged when every "
         "position moves by the same shift s";
}

/// The property's statement: the law over the layouts it draws.
inline std::string property_statement() {
  return "RoPE self-attention (queries and keys rotated, values not) gives the same output "
         "when every position is shifted by the same s: 1-D RoPE (ladder or explicit speeds, "
         "both pairings, positions and shifts up to 2^20) and FLUX-style 3-axis RoPE on an "
         "H x W grid of any shape (text/image number, row, column; one shift per axis)";
}

/// The white-box rule (the property: pv's own attention in T).
inline std::string forward_tolerance_rule() {
  return "both outputs within their a-priori forward bounds (attention_forward_bound with the "
         "rotation errors of rope_apply_error as input errors: angle rounding u|m w| + 2 ulps "
         "of sin/cos, gamma_2 per rotation, gamma_d scores, 2 ulps per exp, gamma_n sums), "
         "the two bounds added entrywise; in hp this is the reference precision";
}

/// The black-box rule (a kernel's rotated rows, attention exact in MPFR);
/// `rotation_rule` is the kernel model's tolerance of one rotated entry.
inline std::string kernel_tolerance_rule(const std::string& rotation_rule) {
  return "per output entry, sum over both runs of (e^{2D_i} - 1) e^{2D_i} sum_j p_ij |x_jc| where "
         "D_i = max_j (dot-product error bound of rows i, j) / sqrt(d) (attention itself computed "
         "exactly in MPFR from the returned rows, so only the rotation errors count); " + rotation_rule;
}

/// The black-box bound of one output entry: the scores of row i each within
/// D of their exact value (D = max_j of the rows' dot bound / sqrt(d)), e2 =
/// e^{2D}, so the softmax weights are within (e^{2D} - 1) e^{2D} relatively;
/// `weighted_abs` = sum_j p_ij |x_jc|.
inline hp kernel_entry_bound(const hp& e2, const hp& weighted_abs) { return (e2 - 1) * e2 * weighted_abs; }

/// One compared output entry.
struct entry_outcome {
  hp diff = 0, bound = 0;
  bool within = true;
};

/// The law body on one output entry: `out` at positions p and `shifted` at
/// p + s, each with its own bound of its exact value.
template <class T>
entry_outcome compare_entry(const T& out, const T& shifted, const hp& bound, const hp& bound_shifted) {
  entry_outcome o;
  o.diff = abs(convert<hp>(out) - convert<hp>(shifted));
  o.bound = bound + bound_shifted;
  o.within = o.diff <= o.bound;
  return o;
}

}  // namespace pv::laws::attention_translation_invariance
