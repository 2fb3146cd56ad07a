// attend.reference, written once: a kernel's attend() -- batch and heads with
// strides, GQA, causal and windowed masks, padding, scale, softcap, sinks,
// ALiBi and the log-sum-exp -- agrees with the exact (MPFR) attention of the
// problem (problem.h), entry by entry within its a-priori any-order bound B
// (and B_lse for the log-sum-exp).
//
// Exactness class: within a reassociation bound (a kernel may sum in any
// order); on an empty row exact (the declared convention, lse = -inf).
// Judge: the black-box check (blackbox/attend_laws.cpp), which draws the
// problems from the capabilities the kernel declares and, on a failure,
// names the class of the error by the variant (problem.h) the output
// matches: the causal alignment, a window off by one, the GQA mapping, the
// scale, the softcap, the ALiBi slopes or the sinks ignored, the softcap's
// formula or its place after the ALiBi bias, the padded keys read, a base-2
// log-sum-exp, the GQA single-query swap (queries read across batch items),
// the causal mask dropped in prefill (cached != uncached), the explicit bias
// added before the softcap (a masked key weighted), or one item's bias read
// for every item.
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/problem.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace pv::laws::attend_reference {

inline constexpr const char* id = "attend.reference";

inline std::string statement() {
  return "attend() (heads, GQA, masks, padding, scale, softcap, sinks, ALiBi, log-sum-exp) agrees with the "
         "exact attention of the problem";
}

inline std::string tolerance_rule() {
  return "|out - ref| <= B per output entry and |lse - ref| <= B_lse per row, ref exact (MPFR), " +
         attend::any_order_rule();
}

/// The law body: the kernel's dense out (and lse, empty when not asked for)
/// against the exact E within the bounds B.
inline attend_compare::worst compare(const attend::problem& P, const std::vector<double>& out, const std::vector<double>& lse,
                             const attend::exact& E, const attend::bounds& B) {
  attend_compare::worst w;
  for (std::size_t e = 0; e < out.size(); ++e) attend_compare::raise(w, e, false, out[e], E.out[e], B.out[e]);
  if (P.lse)
    for (std::size_t e = 0; e < lse.size(); ++e) attend_compare::raise(w, e, true, lse[e], E.lse[e], B.lse[e]);
  return w;
}

/// The class of a log-sum-exp in base 2 (attend.reference and attend.lse_merge name it).
inline constexpr const char* kLseLog2 =
    "log-sum-exp in base 2: it returns log2 Z (an exp2 kernel's running sum, not converted back) instead of ln Z";

/// The class of the GQA tile mapping (attend.reference, attend.gqa_repeat
/// and attend.independence name it).
inline constexpr const char* kGqaTile =
    "GQA mapping: query head h reads KV head h mod h_kv (tile) instead of floor(h h_kv / h_q) (repeat)";

/// The class of a causal mask dropped in prefill (attend.reference,
/// attend.causal_prefix and attend.decode_rows name it).
inline constexpr const char* kPrefillNotCausal =
    "causal mask dropped in prefill: with n_q > 1 the rows see the keys after their position (only a "
    "single-query decode step is masked), so cached and uncached outputs differ (transformers#48748)";

/// The class of the GQA single-query swap (attend.reference and
/// attend.independence name it).
inline constexpr const char* kDecodeSwap =
    "GQA single-query swap: at n_q = 1 the query heads of a KV group are read as query tokens with q's own "
    "strides, so query head g (h_q / h_kv) + r of item b reads the query of item b + r, head g: it reads across "
    "batch items (pytorch PR 186434)";

/// The class of an explicit bias added before the softcap (attend.reference
/// and attend.permutation name it).
inline constexpr const char* kMaskBeforeCap =
    "bias before the softcap: the scores become c tanh((s + bias)/c), not c tanh(s/c) + bias, so a masked key "
    "(bias -inf) gets the logit -c and a weight instead of none (onnx/onnx#7865)";

/// The class of a per-item bias read as a shared one.
inline constexpr const char* kBiasItem0 =
    "bias broadcast over the batch: every item reads item 0's bias instead of its own (a per-item mask read with "
    "a batch stride of 0; onnxruntime-genai PR 1639)";

/// The variants a failure is tried against, with the class each names.
struct named_variant {
  attend::variant w;
  const char* name;
};

inline std::vector<named_variant> variants(const attend::problem& P) {
  std::vector<named_variant> v;
  if (P.causal || P.left >= 0 || P.right >= 0) {
    attend::variant a;
    a.top_left = true;
    v.push_back({a, "causal alignment: it aligns the mask top-left (query 0 at position 0) instead of at q_start "
                    "(bottom-right, n_k - n_q, or the cache length)"});
  }
  if (P.causal && P.n_q > 1) {
    attend::variant a;
    a.prefill_not_causal = true;
    v.push_back({a, kPrefillNotCausal});
  }
  if (P.left >= 0) {
    attend::variant a;
    a.window_extra = 1;
    v.push_back({a, "window off by one: W + 1 keys on the left instead of W (window_left read as left + 1)"});
    a.window_extra = -1;
    v.push_back({a, "window off by one: W - 1 keys on the left instead of W (window_left read as left - 1)"});
  }
  if (P.h_kv > 1 && P.h_kv < P.h_q) {
    attend::variant a;
    a.tile = true;
    v.push_back({a, kGqaTile});
  }
  if (attend::variant a{.decode_swap = true}; attend::decode_swapped(P, a)) v.push_back({a, kDecodeSwap});
  if (P.scale != 0 && P.scale != 1 / std::sqrt(double(P.d))) {
    attend::variant a;
    a.no_scale = true;
    v.push_back({a, "scale ignored: the scores are scaled by 1/sqrt(d) in place of the problem's scale"});
  }
  if (P.softcap > 0) {
    attend::variant a;
    a.no_softcap = true;
    v.push_back({a, "softcap ignored: the scores are not capped (s -> c tanh(s/c) missing)"});
    a = {};
    a.softcap_swish = true;
    v.push_back({a, "softcap formula: the scores become (s/c) tanh(s/c), not c tanh(s/c) (unbounded, a swish)"});
  }
  if (!P.alibi.empty()) {
    attend::variant a;
    a.no_alibi = true;
    v.push_back({a, "ALiBi ignored: the bias slope_h (j - p) is not added to the scores"});
    if (P.softcap > 0) {
      a = {};
      a.cap_after_bias = true;
      v.push_back({a, "softcap after the ALiBi bias: the scores become c tanh((s + bias)/c), not c tanh(s/c) + bias"});
    }
  }
  if (!P.bias.empty() && P.softcap > 0) {
    attend::variant a;
    a.mask_before_cap = true;
    v.push_back({a, kMaskBeforeCap});
  }
  if (P.bias_batch > 1) {
    attend::variant a;
    a.bias_item0 = true;
    v.push_back({a, kBiasItem0});
  }
  bool padded = false;
  for (long l : P.k_len) padded = padded || l < P.n_k;
  if (padded) {
    attend::variant a;
    a.reads_padding = true;
    v.push_back({a, "memory read that must not be: the padded keys (from k_len on) are read and weighted"});
  }
  if (!P.sink.empty()) {
    attend::variant a;
    a.no_sinks = true;
    v.push_back({a, "sinks dropped: exp(sink) is missing from the softmax denominator"});
  }
  if (P.lse) {
    attend::variant a;
    a.lse_log2 = true;
    v.push_back({a, kLseLog2});
  }
  // a row that reads only its first L keys, L a power of two from 4096 down to 16 and below the
  // longest row's keys (a score buffer or a grid sized for L keys), the largest first
  long longest = 0;
  for (long l : P.k_len) longest = std::max(longest, std::min(l, P.n_k));
  static const std::vector<std::string> limit_names = [] {
    std::vector<std::string> n;
    for (long L = 4096; L >= 16; L /= 2)
      n.push_back("keys past " + std::to_string(L) + " dropped: a row reads only its first " + std::to_string(L) +
                  " keys (a score buffer or a grid sized for " + std::to_string(L) +
                  " keys, clamped instead of refused: vllm-project/vllm#905)");
    return n;
  }();
  for (long L = 4096, k = 0; L >= 16; L /= 2, ++k)
    if (L < longest) {
      attend::variant a;
      a.key_limit = L;
      v.push_back({a, limit_names[std::size_t(k)].c_str()});
    }
  return v;
}

}  // namespace pv::laws::attend_reference
