// attend.models, written once: a kernel's attend() at the shapes of shipped
// models (--profile models, or --attend-preset NAME) agrees with the exact
// attention of the problem (problem.h) on a sample of its rows, and every
// other row is finite.
//
// Each preset is one model's attention layer as its published configuration
// gives it (heads, KV heads, head dimension, window, softcap, sinks), at a
// context long enough to cross every tile boundary a kernel has:
//   llama-3-8b-decode  32 query heads, 8 KV heads, d 128 (Llama 3, Meta 2024);
//                      one decoding step of two sequences, caches of 8192 and
//                      5000 tokens (cache_seqlens: the second item padded)
//   mistral-7b-prefill 32 / 8 heads, d 128, a sliding window of 4096 keys
//                      counting the query itself (Mistral 7B, Jiang et al.
//                      2023); a chunk of 16 queries at the end of 4608 keys
//   gemma-2-9b         16 / 8 heads, d 256, scale 1/16 (the query pre-
//                      attention scalar 256), logit softcap 50, window 4096
//                      (Gemma 2, Gemma Team 2024); 16 queries after 4608 keys
//   gpt-oss-20b        64 / 8 heads, d 64, a learned sink logit per head and a
//                      window of 128 keys (gpt-oss, OpenAI 2025); 16 queries
//                      after 4096 keys
//   flux.1-dev         24 heads, d 128, no mask, 4608 tokens (4096 image and
//                      512 text tokens of a 1024 x 1024 image; Black Forest
//                      Labs 2024); a block of 32 of the query rows (rows are
//                      independent: the block's rows are those of the full
//                      call; attention.shapes runs a whole FLUX.1 head)
// A field enters the problem only when the kernel declares its capability
// (GQA: otherwise h_kv = h_q, the K/V heads repeated as the caller of such a
// kernel repeats them; causal, window, padding, softcap, sinks: otherwise
// left out), so that a preset is never declined for what the kernel does not
// claim; the report gives each case's problem as it ran.
//
// Inputs: q uniform in [-s, s] with s = 1, 4, 16 or 64 by query head (h mod
// 4: logits of a few tenths up to past the softcap), k and v uniform in
// [-1, 1]; drawn from the seed, so that the replay command rebuilds them.
//
// Judge (blackbox/attend_models.cpp): MPFR computes the exact output and the
// any-order bound B (problem.h) of the sampled rows: (b 0, i 0, h 0),
// (b 0, i 0, h 1) (heads 0 and 1 read different KV heads under repeat, the
// same under tile), the last row of the last item and head, and three drawn
// rows. The other rows' entries must be finite (or NaN where the kernel
// declares NaN for an empty row). A sampled entry whose bound is at least
// the largest |v| of its column is "not bounded here", never a pass.
#pragma once

#include "laws/attend/problem.h"

#include <string>
#include <vector>

namespace pv::laws::attend_models {

inline constexpr const char* id = "attend.models";

inline std::string statement() {
  return "attend() at the shapes of shipped models (Llama 3 decode, Mistral and Gemma 2 windows, gpt-oss sinks, "
         "FLUX.1) agrees with the exact attention on a sample of rows, and every other row is finite";
}

inline std::string tolerance_rule() {
  return "|out - ref| <= B per output entry and |lse - ref| <= B_lse per row of the sample, ref exact (MPFR), " +
         attend::any_order_rule() + "; the other rows finite";
}

/// One model's attention layer (file comment): the fields a problem takes
/// from it when the kernel declares them.
struct preset {
  const char* name;
  const char* about;
  long batch, h_q, h_kv, n_q, n_k, d, d_v;
  std::vector<long> k_len;  ///< per item (padding), empty: n_k
  bool causal = false;
  long left = -1;       ///< inclusive window on the left
  double scale = 0;     ///< 0: 1/sqrt(d)
  double softcap = 0;
  bool sinks = false;
};

inline const std::vector<preset>& presets() {
  static const std::vector<preset> p = {
      {"llama-3-8b-decode", "Llama 3 8B, one decoding step against caches of 8192 and 5000 tokens", 2, 32, 8, 1,
       8192, 128, 128, {8192, 5000}, true},
      {"mistral-7b-prefill", "Mistral 7B, a prefill chunk of 16 queries at the end of 4608 keys, window 4096", 1,
       32, 8, 16, 4608, 128, 128, {}, true, 4095},
      {"gemma-2-9b", "Gemma 2 9B, 16 queries after 4608 keys, softcap 50, window 4096", 1, 16, 8, 16, 4608, 256,
       256, {}, true, 4095, 0.0625, 50.0},
      {"gpt-oss-20b", "gpt-oss 20B, 16 queries after 4096 keys, a sink per head, window 128", 1, 64, 8, 16, 4096,
       64, 64, {}, true, 127, 0, 0, true},
      {"flux.1-dev", "FLUX.1, 32 of the 4608 query rows of a 1024 x 1024 image, 24 heads, no mask", 1, 24, 24, 32,
       4608, 128, 128, {}},
  };
  return p;
}

/// The preset called `name`, or null.
inline const preset* find_preset(const std::string& name) {
  for (const auto& p : presets())
    if (name == p.name) return &p;
  return nullptr;
}

/// The names of every preset, comma-separated (for the usage text and errors).
inline std::string preset_names() {
  std::string s;
  for (const auto& p : presets()) s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

}  // namespace pv::laws::attend_models
