// attend.causal_prefix, written once: a row does not depend on the keys and
// values it may not see. Changing every key and value from position `cut` on
// leaves each row whose visible keys all lie before `cut` unchanged -- bit
// for bit, since those keys' weights are exactly zero and the kernel performs
// the same operations on the same visible inputs (the causal prefix law of
// autoregressive decoding: row i depends on keys 0..i only).
//
// An empty row is left out when the kernel declares its convention to be the
// mean of V: that value depends, by declaration, on every valid value.
//
// Exactness class: bitwise. A kernel whose output moves at all when only
// invisible keys change reads them (a leak through an additive mask, a max
// over masked scores that rounds differently, NaN in masked K/V passing
// through 0 * NaN).
// Judge: the black-box check (blackbox/attend_laws.cpp).
#pragma once

#include "laws/attend/problem.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace pv::laws::attend_causal_prefix {

inline constexpr const char* id = "attend.causal_prefix";

inline std::string statement() {
  return "changing the keys and values a row may not see (positions from a cut on) leaves that row unchanged, bit for bit";
}

inline std::string tolerance_rule() {
  return "bitwise: every entry of a row whose visible keys all lie before the cut is the same bit pattern in both "
         "calls (the changed keys have weight exactly 0)";
}

/// Whether row (b, i) sees no key at or after `cut` (the rows the law
/// compares; not an empty row under the convention "the mean of V", whose
/// value is declared to depend on every valid value).
inline bool shielded(const attend::problem& P, long b, long i, long cut, attend::empty_rows conv) {
  if (conv == attend::empty_rows::mean && attend::empty_row(P, b, i)) return false;
  for (long j = cut; j < P.n_k; ++j)
    if (attend::visible(P, b, i, j)) return false;
  return true;
}

/// The problem with keys and values from `cut` on replaced by fill(index).
template <class Fill>
attend::problem changed_after(const attend::problem& P, long cut, Fill&& fill) {
  attend::problem R = P;
  for (long b = 0; b < P.batch; ++b)
    for (long j = cut; j < P.n_k; ++j)
      for (long g = 0; g < P.h_kv; ++g) {
        for (long l = 0; l < P.d; ++l) R.k[R.ki(b, j, g, l)] = fill(R.ki(b, j, g, l));
        for (long c = 0; c < P.d_v; ++c) R.v[R.vi(b, j, g, c)] = fill(R.vi(b, j, g, c) + 7919);
      }
  return R;
}

/// The first entry (dense index) of a shielded row whose bits differ, or -1.
inline long first_difference(const attend::problem& P, long cut, attend::empty_rows conv,
                             const std::vector<double>& a, const std::vector<double>& b2) {
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i) {
      if (!shielded(P, b, i, cut, conv)) continue;
      for (long h = 0; h < P.h_q; ++h)
        for (long c = 0; c < P.d_v; ++c) {
          const std::size_t e = P.oi(b, i, h, c);
          if (std::memcmp(&a[e], &b2[e], sizeof(double)) != 0) return long(e);
        }
    }
  return -1;
}

}  // namespace pv::laws::attend_causal_prefix
