// attend.padding, written once: padding is dropping the padded keys. Item b
// of a padded batch (keys k_len[b] .. n_k - 1 padding, their K and V memory
// filled with NaN: memory that must not be read) gives the output of the
// same item alone with n_k = k_len[b] keys and no padding (key-padding masks,
// cache_seqlens, the per-sequence lengths of a variable-length batch).
//
// Exactness class: within a reassociation bound: both within their B
// (problem.h) of the same exact value, so |A_pad - A_item| <= B_pad + B_item;
// a NaN read from the padding shows as NaN, never within a bound.
// Judge: the black-box check (blackbox/attend_laws.cpp).
#pragma once

#include "laws/attend/compare.h"
#include "laws/attend/problem.h"

#include <limits>
#include <string>
#include <vector>

namespace pv::laws::attend_padding {

inline constexpr const char* id = "attend.padding";

inline std::string statement() {
  return "a padded batch item (its padded K/V memory NaN) equals the item alone without its padded keys";
}

inline std::string tolerance_rule() {
  return "|A_pad - A_item| <= B_pad + B_item per entry (NaN never within), " + attend::any_order_rule();
}

/// The padded problem with the padded keys' K and V set to NaN.
inline attend::problem poisoned(const attend::problem& P) {
  attend::problem R = P;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (long b = 0; b < P.batch; ++b)
    for (long j = P.k_len[std::size_t(b)]; j < P.n_k; ++j)
      for (long g = 0; g < P.h_kv; ++g) {
        for (long l = 0; l < P.d; ++l) R.k[R.ki(b, j, g, l)] = nan;
        for (long c = 0; c < P.d_v; ++c) R.v[R.vi(b, j, g, c)] = nan;
      }
  return R;
}

/// Item b alone, its padded keys dropped (n_k = k_len[b], batch 1), with its
/// explicit bias's columns of those keys.
inline attend::problem item(const attend::problem& P, long b) {
  attend::problem R = P;
  R.batch = 1;
  R.n_k = P.k_len[std::size_t(b)];
  R.allocate();
  R.q_start[0] = P.q_start[std::size_t(b)];
  for (long i = 0; i < P.n_q; ++i)
    for (long h = 0; h < P.h_q; ++h)
      for (long l = 0; l < P.d; ++l) R.q[R.qi(0, i, h, l)] = P.q[P.qi(b, i, h, l)];
  for (long j = 0; j < R.n_k; ++j)
    for (long g = 0; g < P.h_kv; ++g) {
      for (long l = 0; l < P.d; ++l) R.k[R.ki(0, j, g, l)] = P.k[P.ki(b, j, g, l)];
      for (long c = 0; c < P.d_v; ++c) R.v[R.vi(0, j, g, c)] = P.v[P.vi(b, j, g, c)];
    }
  attend::carry_bias(P, R, 0, {b});
  return R;
}

/// The law body for item b: the padded output's rows of item b against the
/// item's own output.
inline void compare_item(attend_compare::worst& w, const attend::problem& P, long b, const attend::problem& I,
                         const std::vector<double>& pad, const std::vector<double>& alone, const attend::bounds& Bp,
                         const attend::bounds& Bi) {
  for (long i = 0; i < P.n_q; ++i)
    for (long h = 0; h < P.h_q; ++h)
      for (long c = 0; c < P.d_v; ++c) {
        const std::size_t e = P.oi(b, i, h, c), f = I.oi(0, i, h, c);
        attend_compare::raise(w, e, false, pad[e], hp(alone[f]), Bp.out[e] + Bi.out[f]);
      }
}

}  // namespace pv::laws::attend_padding
