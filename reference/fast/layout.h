// The fast tier's RoPE pairs from a posverify layout (src/posverify/rope.h),
// so that both tiers rotate exactly the same pairs at the same speeds.
#pragma once

#include "fast.h"
#include "posverify/rope.h"

namespace pv::fast {

inline std::vector<rope_pair> pairs_of(const rope_layout<hp>& L) {
  std::vector<rope_pair> r;
  for (const auto& p : L.pairs) r.push_back({p.a, p.b, p.axis, p.speed});
  return r;
}

}  // namespace pv::fast
