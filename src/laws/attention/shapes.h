// attention.shapes, written once: a kernel's softmax(q k^T / sqrt(d)) v agrees
// with the certified reference at the sizes and on the inputs real models give
// it (tile boundaries of n_k, head dims 32-256, d != d_v, n_q = 1, and ties,
// padding, underflow, overflow, subnormals).
//
// Tolerance of every entry: |out - ref| <= B + b_ref, where B is the any-order
// bound (any_order_bound.h) evaluated in binary64 with its own rounding and an
// underflow term counted (attention_bound::any_order_binary64), and b_ref the
// reference's certified bound (the fast double-word tier, src/reference/fast/, or
// MPFR where scores leave its range).
// Judge: the black-box check (blackbox/shapes.cpp: the profiles' shapes, the
// structured inputs, the reference and MPFR's sample of it).
#pragma once

#include "laws/attention/any_order_bound.h"
#include "numerics/scalar.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace pv::laws::attention_shapes {

inline constexpr const char* id = "attention.shapes";

/// The law at the sizes of profile `profile` (quick or models).
inline std::string statement(const std::string& profile) {
  return "softmax(q k^T / sqrt(d)) v agrees with the certified reference at the sizes of real kernels "
         "(profile " + profile + ": tile boundaries of n_k, head dims 32-256, d != d_v, n_q = 1" +
         (profile == "models" ? ", a decoding step, a FLUX.1 head of 4608 tokens with its 3-axis RoPE"
                              : std::string()) +
         ") on random and structured inputs (ties, padding, underflow, overflow, subnormals, rows of 4096 keys "
         "with all-positive values)";
}

inline std::string tolerance_rule() {
  return "|out - ref| <= B + b_ref per entry: B the a-priori bound of the entry (any order of the sums: "
         "(e^{2D} - 1 + gamma_{4n+4} e^{2D}) sum_j p_j |v_jc| + n mu max_j |v_jc| + (4n + 4) eta, "
         "D = max_j gamma_{d+3} sum_l |q_l k_jl| / sqrt(d) + u |s_j - max s| + 2u + (d + 3) eta; eta the "
         "subnormal spacing (for bfloat16 its smallest normal: its hardware flushes subnormals to zero); under a storage class q, k, v and the output stored at its u_s, the sums at "
         "float32's u: any_order_bound.h), evaluated in binary64 with its own rounding counted, a shape "
         "whose B + b_ref reaches max_j |v_jc| reported not bounded; ref the fast "
         "double-word tier with its certified bound b_ref (MPFR where scores leave its range), MPFR "
         "judging three rows of every case";
}

/// The entry with the largest |out - ref| / (B + b_ref) (found in binary64),
/// and its error and tolerance exactly (hp). found false: no output entries.
struct outcome {
  bool found = false;
  double ratio = -1;  ///< the largest ratio (infinite where the tolerance is 0 and the error is not)
  std::size_t entry = 0;  ///< row-major index of that entry
  hp ref_value = 0, diff = 0, bound = 0;
  bool within = true;
};

/// The law body on one case: `out` (row-major) against the reference hi + lo
/// with its certified bound `ref_bound`, B the any-order bound in binary64.
template <class T>
outcome compare(const std::vector<T>& out, const std::vector<double>& ref_hi, const std::vector<double>& ref_lo,
                const std::vector<double>& ref_bound, const std::vector<double>& B) {
  outcome o;
  for (std::size_t e = 0; e < out.size(); ++e) {
    const double err = std::abs((double(out[e]) - ref_hi[e]) - ref_lo[e]);
    const double tol = B[e] + ref_bound[e];
    const double r = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0);
    if (!(r <= o.ratio)) {
      o.ratio = r;
      o.entry = e;
      o.found = true;
    }
  }
  if (!o.found) return o;
  const std::size_t e = o.entry;
  o.ref_value = convert<hp>(ref_hi[e]) + convert<hp>(ref_lo[e]);
  o.diff = abs(convert<hp>(out[e]) - o.ref_value);
  o.bound = std::isfinite(B[e]) ? hp(convert<hp>(B[e]) + convert<hp>(ref_bound[e]))
                                : hp(std::numeric_limits<double>::infinity());
  o.within = o.diff <= o.bound;
  return o;
}

}  // namespace pv::laws::attention_shapes
