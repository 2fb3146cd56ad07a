// attend.independence, written once: batch items and KV-head groups do not
// read each other. Changing every input of one batch item (its queries, keys
// and values) leaves every row of the other items unchanged; changing the
// keys and values of one KV head, and the queries of the heads that read it
// (query head h reads KV head floor(h h_kv / h_q)), leaves every row of the
// other query heads unchanged -- bit for bit, and their log-sum-exp with
// them: no operation on those rows has a changed input.
//
// What breaks it: a kernel addressing one item's memory from another's (a
// batch stride dropped or overflowed, flash-attention#772; the GQA
// single-query swap that reads item b + r's query, pytorch PR 186434), a
// head mapping other than the declared one (tile against repeat), or state
// carried across items or heads (a running maximum not reset).
//
// The memory that must not be read (the padded keys and values, the gaps
// between strides) holds NaN in every call.
//
// Exactness class: bitwise. A kernel whose schedule depends on the data of
// other items or heads is not excluded by the interface, but none of the
// ways real libraries compute does it (their tiles and splits depend on the
// shapes, k_len and the masks, which the law leaves as they are).
// Judge: the black-box check (blackbox/attend_laws.cpp).
#pragma once

#include "laws/attend/problem.h"

#include <cstring>
#include <string>
#include <vector>

namespace pv::laws::attend_independence {

inline constexpr const char* id = "attend.independence";

inline std::string statement() {
  return "changing one batch item's inputs, or one KV head's keys and values with the queries that read it, leaves "
         "every other item's and head's rows unchanged, bit for bit";
}

inline std::string tolerance_rule() {
  return "bitwise: every output entry and log-sum-exp of a row of another item (another KV-head group) is the same "
         "bit pattern in both calls (none of its inputs changed)";
}

/// The problem with every input of item `item` replaced by fill(index).
template <class Fill>
attend::problem item_changed(const attend::problem& P, long item, Fill&& fill) {
  attend::problem R = P;
  for (long i = 0; i < P.n_q; ++i)
    for (long h = 0; h < P.h_q; ++h)
      for (long l = 0; l < P.d; ++l) R.q[R.qi(item, i, h, l)] = fill(R.qi(item, i, h, l));
  for (long j = 0; j < P.k_len[std::size_t(item)]; ++j)
    for (long g = 0; g < P.h_kv; ++g) {
      for (long l = 0; l < P.d; ++l) R.k[R.ki(item, j, g, l)] = fill(R.ki(item, j, g, l) + 7919);
      for (long c = 0; c < P.d_v; ++c) R.v[R.vi(item, j, g, c)] = fill(R.vi(item, j, g, c) + 15401);
    }
  return R;
}

/// The problem with KV head `kv`'s valid keys and values, and the queries of
/// the heads reading it, replaced by fill(index) in every item.
template <class Fill>
attend::problem head_changed(const attend::problem& P, long kv, Fill&& fill) {
  attend::problem R = P;
  for (long b = 0; b < P.batch; ++b) {
    for (long i = 0; i < P.n_q; ++i)
      for (long h = 0; h < P.h_q; ++h)
        if (attend::kv_head(P, h) == kv)
          for (long l = 0; l < P.d; ++l) R.q[R.qi(b, i, h, l)] = fill(R.qi(b, i, h, l));
    for (long j = 0; j < P.k_len[std::size_t(b)]; ++j) {
      for (long l = 0; l < P.d; ++l) R.k[R.ki(b, j, kv, l)] = fill(R.ki(b, j, kv, l) + 7919);
      for (long c = 0; c < P.d_v; ++c) R.v[R.vi(b, j, kv, c)] = fill(R.vi(b, j, kv, c) + 15401);
    }
  }
  return R;
}

/// A row whose bits differ between the two calls.
struct moved_row {
  long b = -1, i = -1, h = -1;
  std::size_t entry = 0;  ///< its first differing entry (dense out index; lse index when `in_lse`)
  bool in_lse = false;
};

/// The rows (b, i, h) with compared(b, h) true whose bits differ in out or
/// lse, in dense order; empty when the law holds.
template <class Compared>
std::vector<moved_row> moved(const attend::problem& P, Compared&& compared, const std::vector<double>& a,
                             const std::vector<double>& la, const std::vector<double>& b2,
                             const std::vector<double>& lb) {
  std::vector<moved_row> out;
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long h = 0; h < P.h_q; ++h) {
        if (!compared(b, h)) continue;
        moved_row r{b, i, h};
        bool diff = false;
        for (long c = 0; c < P.d_v && !diff; ++c) {
          const std::size_t e = P.oi(b, i, h, c);
          if (std::memcmp(&a[e], &b2[e], sizeof(double)) != 0) r.entry = e, diff = true;
        }
        const std::size_t l = P.li(b, h, i);
        if (!diff && l < la.size() && l < lb.size() && std::memcmp(&la[l], &lb[l], sizeof(double)) != 0)
          r.entry = l, r.in_lse = true, diff = true;
        if (diff) out.push_back(r);
      }
  return out;
}

/// Whether the query heads that moved when KV head `kv` changed are exactly
/// those that read it under the tile mapping (h mod h_kv) -- on the compared
/// heads, which do not read it under repeat.
inline bool tile_explains(const attend::problem& P, long kv, const std::vector<moved_row>& rows) {
  if (P.h_kv <= 1 || P.h_kv >= P.h_q || rows.empty()) return false;
  for (const auto& r : rows)
    if (attend::kv_head(P, r.h, attend::variant{.tile = true}) != kv) return false;
  return true;
}

}  // namespace pv::laws::attend_independence
