// The fast tier's RoPE pairs from a posverify layout (numerics/rope.h),
// so that both tiers rotate exactly the same pairs at the same speeds.
#pragma once

#include "reference/fast/fast.h"
#include "numerics/rope.h"

namespace pv::fast {

inline std::vector<rope_pair> pairs_of(const rope_layout<hp>& L) {
  std::vector<rope_pair> r;
  for (const auto& p : L.pairs) r.push_back({p.a, p.b, p.axis, p.speed});
  return r;
}

/// RoPE of the n rows of X by a posverify layout: its pairs, speeds and scale
/// (the configurations of rope_scaling.h: partial rotary, M-RoPE, scaled
/// speeds, YaRN's attention factor), positions n x L.n_axes.
inline result rope(const double* x, const double* pos, std::size_t n, const rope_layout<hp>& L,
                   unsigned threads = 0) {
  return rope_scaled(x, pos, n, L.head_dim, L.n_axes, pairs_of(L), L.scale, threads);
}

}  // namespace pv::fast
