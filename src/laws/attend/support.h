// attend.support, written once: the support probe. With q = 0 every visible
// key has the same logit (softcap keeps 0 at 0; no ALiBi, no sinks), and with
// one-hot values (v_j = e_j, d_v = n_k) output entry (row, c) is the weight of
// key c: 1/|S| on the row's visible set S, exactly 0 elsewhere. Reading the
// nonzero entries off a kernel's output gives the mask it applies -- the
// causal alignment, the window's inclusive ends and an explicit mask (a bias
// of -inf; its finite values change the weights, never which are 0) -- and
// the law requires it to be the problem's.
//
// Exactness class: exact on the support (which weights are zero); the
// nonzero weights are within the bound B (problem.h) of 1/|S|.
// Judge: the black-box check (blackbox/attend_laws.cpp), which names the
// class from the keys read off: the alignment (off by how many positions),
// the window's left or right end off by one, the padding read, the explicit
// mask added before the softcap or item 0's mask read for every item.
#pragma once

#include "core/ranges.h"
#include "laws/attend/problem.h"
#include "laws/attend/reference.h"

#include <cmath>
#include <string>
#include <vector>

namespace pv::laws::attend_support {

inline constexpr const char* id = "attend.support";

inline std::string statement() {
  return "with q = 0 and one-hot values the nonzero output entries are exactly the keys the mask lets each row see";
}

inline std::string tolerance_rule() {
  return "exact on the support: an entry is nonzero exactly when its key is visible (causal alignment at q_start, "
         "the window's inclusive ends, padding, an explicit mask); the nonzero weights are judged by attend.reference";
}

/// The probe of a problem: q = 0, d_v = n_k, v_j = e_j for every head; no
/// ALiBi, no sinks, no log-sum-exp.
inline attend::problem probe(const attend::problem& P) {
  attend::problem R = P;
  R.d_v = P.n_k;
  R.alibi.clear();
  R.sink.clear();
  R.lse = false;
  R.q.assign(std::size_t(R.batch * R.n_q * R.h_q * R.d), 0.0);
  R.v.assign(std::size_t(R.batch * R.n_k * R.h_kv * R.d_v), 0.0);
  for (long b = 0; b < R.batch; ++b)
    for (long j = 0; j < R.n_k; ++j)
      for (long g = 0; g < R.h_kv; ++g) R.v[R.vi(b, j, g, j)] = 1.0;
  return R;
}

/// The keys a row sees: in the kernel's output (nonzero entries) and by the
/// problem's mask.
struct row_support {
  long b = 0, i = 0, h = 0;
  std::vector<long> got, want;
};

/// The first row (b, i, h) of a non-empty mask whose support differs, if any
/// (found false when all agree). Empty rows are left to attend.reference.
inline bool first_mismatch(const attend::problem& R, const std::vector<double>& out, row_support& s) {
  for (long b = 0; b < R.batch; ++b)
    for (long i = 0; i < R.n_q; ++i) {
      if (attend::empty_row(R, b, i)) continue;
      for (long h = 0; h < R.h_q; ++h) {
        std::vector<long> got, want;
        for (long j = 0; j < R.n_k; ++j) {
          const double x = out[R.oi(b, i, h, j)];
          if (x != 0 || std::isnan(x)) got.push_back(j);
          if (attend::visible(R, b, i, j)) want.push_back(j);
        }
        if (got != want) {
          s = {b, i, h, got, want};
          return true;
        }
      }
    }
  return false;
}

/// The keys as ranges: "0..4, 7".
inline std::string ranges(const std::vector<long>& k) { return text::ranges(k, ".."); }

/// The class of a support mismatch: which reading of the problem (problem.h's
/// variants) gives the kernel's support on every row, or "" when none does;
/// `item` is the batch item of the first mismatch (its q_start is quoted).
inline std::string classify(const attend::problem& R, const std::vector<double>& out, long item) {
  auto matches = [&](const attend::variant& w) {
    for (long b = 0; b < R.batch; ++b)
      for (long i = 0; i < R.n_q; ++i)
        for (long h = 0; h < R.h_q; ++h)
          for (long j = 0; j < R.n_k; ++j) {
            const double x = out[R.oi(b, i, h, j)];
            if ((x != 0 || std::isnan(x)) != attend::visible(R, b, i, j, w)) return false;
          }
    return true;
  };
  attend::variant w;
  w.top_left = true;
  if (matches(w)) {
    return "causal alignment: the mask is aligned top-left (query 0 at position 0), " +
           std::to_string(R.q_start[std::size_t(item)]) + " positions before q_start of item " + std::to_string(item) +
           " (bottom-right: n_k - n_q, decode: the cache length)";
  }
  attend::variant pad;
  pad.reads_padding = true;
  if (matches(pad)) return "memory read that must not be: the padded keys (from k_len on) are read and weighted";
  for (long extra : {1L, -1L}) {
    attend::variant x;
    x.window_extra = extra;
    if (R.left >= 0 && matches(x))
      return std::string("window off by one: ") + (extra > 0 ? "W + 1" : "W - 1") + " keys on the left instead of W = " +
             std::to_string(R.left) + " (the inclusive end read as " + std::to_string(R.left + extra) + ")";
  }
  // the explicit bias's readings: both named when both give this support (item 0's bias may mask no
  // key the others' do not)
  const bool before_cap = R.softcap > 0 && !R.bias.empty() && matches(attend::variant{.mask_before_cap = true}),
             item0 = R.bias_batch > 1 && matches(attend::variant{.bias_item0 = true});
  if (before_cap && item0)
    return std::string("either of two readings gives this support: ") + attend_reference::kMaskBeforeCap + "; or " +
           attend_reference::kBiasItem0;
  if (before_cap) return attend_reference::kMaskBeforeCap;
  if (item0) return attend_reference::kBiasItem0;
  return "";
}

}  // namespace pv::laws::attend_support
