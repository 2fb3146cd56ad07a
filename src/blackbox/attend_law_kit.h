// What the attend laws of `check` share across their files (attend_laws.cpp:
// the laws against the exact reference and the order every law runs in;
// attend_call_laws.cpp: the laws that compare calls of one problem written
// otherwise; attend_twin_laws.cpp: the laws that compare a call with a twin
// call, of the cache, the layout and the scalings): what a law asks of its
// problems, how a case draws them, the diagnoses of a failure, the runners of
// a law of one or two calls per case, and the laws of the other files,
// instantiated there for float and double. The laws are split so that a
// change to one recompiles its file, not every attend law (each file is its
// own compiler run, outside the unity batches: cmake/stages.cmake).
#pragma once

#include "blackbox/attend_calls.h"
#include "blackbox/law_run.h"
#include "laws/attend/compare.h"
#include "laws/attend/fast_bound.h"
#include "laws/attend/problem.h"
#include "laws/attend/reference.h"
#include "laws/attend/softcap_saturation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace pv::blackbox::attend_kit {

using laws::attend::problem;
namespace la = laws::attend;
using attend_calls::attend_call;
using attend_calls::convention;
using attend_calls::dense_layout;
using attend_calls::dense_layouts;
using attend_calls::dense_reading;
using attend_calls::describe;
using attend_calls::draw_layouts;
using attend_calls::entry_of;
using attend_calls::kTensorNames;
using attend_calls::storage;
using attend_calls::layout;
using attend_calls::layout_of;
using attend_calls::layouts;
using attend_calls::list_text;
using attend_calls::read_back;
using attend_calls::record;
using attend_calls::units;

/// What a law asks of its problems beyond the kernel's capabilities.
struct wants {
  bool gqa = false;      ///< 1 < h_kv < h_q (distinct KV heads, repeat and tile differ)
  bool causal = false;   ///< causal, q_start >= 0
  bool padding = false;  ///< some k_len < n_k, all >= 1
  bool no_window = false;
  bool no_padding = false;
  bool no_extras = false;  ///< no ALiBi, no sinks, no log-sum-exp
  bool no_sinks = false;   ///< no sinks (a law where a call counts them once and its twin twice)
  /// a sink in every case, the same for every head (written as an explicit bias, which has no head
  /// dimension); rows that see no key keep it (they see only the sink)
  bool one_sink = false;
  /// the softcap chosen from the drawn scores so that they saturate it (attend.softcap_saturation)
  bool saturated_cap = false;
  /// capabilities every call of the law carries (a kernel that does not declare them declines it)
  std::uint32_t asks = 0;
  bool small_keys = false; ///< n_k <= 40 (the support probe: d_v = n_k)
  bool lse = false;        ///< the log-sum-exp asked for, no sinks, n_k >= 2 (the merge law)
  bool cap_and_alibi = false;  ///< softcap and ALiBi together, where both are declared (their order)
  bool several = false;    ///< batch >= 2 and h_kv = 2 (items and KV heads to tell apart)
  /// an explicit bias in some cases, where the kernel declares it (the laws whose calls carry it)
  bool bias = false;
  bool cap_and_bias = false;  ///< softcap and a bias with masked keys together, where both are declared
  bool mask_only = false;     ///< the bias a keep-mask (0 or -inf): the visible keys' weights left as drawn
  bool no_alibi = false;
  /// the cases query_blocks(k) draw n_q across blocks of 64 rows (a grid of query blocks, its last
  /// partial block): the laws that judge every row, where the exact reference's cost allows
  bool query_blocks = false;
};

inline bool has(std::uint32_t caps, std::uint32_t bit) { return (caps & bit) != 0; }

/// Whether case k draws its queries across blocks of 64 rows (n_q 65, 129,
/// 64 and 127 in turn): one case in 25, the seventh.
inline bool query_blocks(int k) { return k % 25 == 6; }

/// Whether case k has rows that see no key, for a kernel declaring an
/// empty-row convention: one case in ten, the ninth.
inline bool query_empties(int k) { return k % 10 == 8; }

/// The magnitude of case k's queries and keys (drawn in [-s, s]).
inline double query_scale(int k) {
  static const double scales[] = {1, 3, 0.3, 8};
  return scales[k % 4];
}

/// An explicit bias for P, one per item or one shared (when batch > 1, either
/// way): a keep-mask (0 or -inf), values, or values with masked keys; the
/// values quarters in [-4, 4], exact in every format (the bound need not
/// count their storage). `masked`: some keys masked; `mask_only`: a keep-mask.
inline void draw_bias(rng& g, problem& P, bool masked, bool mask_only) {
  P.bias_batch = P.batch > 1 && g.range(0, 1) ? P.batch : 1;
  P.bias.assign(std::size_t(P.bias_batch * P.n_q * P.n_k), 0.0);
  const long mode = mask_only ? 0 : masked ? 2 * g.range(0, 1) : g.range(0, 2);  // 0 mask, 1 values, 2 both
  for (auto& x : P.bias) {
    if (mode != 1 && g.range(0, 3) == 0) x = -std::numeric_limits<double>::infinity();
    else if (mode != 0) x = double(g.range(-16, 16)) / 4;
  }
}

/// Draws a problem of case k: shapes, positions, masks and scalars from the
/// capabilities `caps` the kernel declares and what the law wants; inputs
/// rounded to T. Rows without a visible key are avoided unless the kernel
/// declares an empty-row convention.
template <class T>
problem draw(const check_run& cx, rng& g, int k, std::uint32_t caps, la::empty_rows conv, const wants& w) {
  problem P;
  for (int attempt = 0; attempt < 20; ++attempt) {
    P = problem{};
    P.batch = g.range(1, 3);
    P.h_kv = g.range(1, 2);
    if (w.several) P.batch = std::max(P.batch, 2L), P.h_kv = 2;
    long ratio = 1;
    if (w.gqa) {
      P.h_kv = 2;
      static const long group[] = {2, 4, 8};
      ratio = group[g.range(0, 2)];
    } else if (has(caps, PV_ATTEND_GQA)) {
      static const long ratios[] = {1, 4, 8, 2};
      ratio = ratios[k % 4];
    }
    static const long across[] = {15, 16, 17, 31, 32, 33, 63, 64, 65};
    P.n_k = k % 5 == 0 ? across[g.range(0, w.small_keys ? 5 : 8)] : g.range(w.padding || w.lse ? 2 : 1, 24);
    static const long nqs[] = {1, 7, 3};
    P.n_q = k % 3 == 2 ? g.range(1, 9) : nqs[k % 3];
    P.d = k % 7 == 3 ? 32 : g.range(1, 16);
    P.d_v = g.range(1, 8);
    if (ratio == 8) P.batch = w.several ? 2 : 1;  // 16 query heads: the reference's cost
    if (w.query_blocks && query_blocks(k)) {
      // queries across blocks of 64 (and 128) rows, the keys as many: small heads, one item and one
      // KV head where the law allows (the exact reference costs n_q n_k (d + d_v) per head)
      static const long rows[] = {65, 129, 64, 127};
      P.n_q = rows[k / 25 % 4];
      P.n_k = P.n_q + g.range(-1, 1);
      P.batch = w.several ? 2 : 1;
      P.h_kv = w.several || w.gqa ? 2 : 1;
      ratio = w.gqa ? 2 : 1;
      P.d = std::min(P.d, 8L);
      P.d_v = std::min(P.d_v, 4L);
    }
    P.h_q = P.h_kv * ratio;
    P.allocate();
    P.causal = w.causal || (has(caps, PV_ATTEND_CAUSAL) && g.range(0, 1));
    for (long b = 0; b < P.batch; ++b) {
      const long mode = g.range(0, 3);
      long qs = mode == 0 ? P.n_k - P.n_q : mode == 1 ? 0 : g.range(-2, P.n_k + 2);
      if (w.causal && qs < 0) qs = 0;
      P.q_start[std::size_t(b)] = qs;
    }
    if (!w.no_window && has(caps, PV_ATTEND_WINDOW) && g.range(0, 2) == 0) {
      P.left = g.range(0, 2) ? g.range(0, P.n_k + 1) : -1;
      P.right = P.causal ? (g.range(0, 1) ? -1 : 0) : (g.range(0, 2) ? g.range(0, P.n_k) : -1);
      if (P.left < 0 && P.right < 0) P.left = g.range(0, P.n_k);
    }
    const bool pad = w.padding || (!w.no_padding && has(caps, PV_ATTEND_PADDING) && g.range(0, 2) == 0);
    if (pad) {
      for (auto& l : P.k_len) l = g.range(w.padding ? 1 : 0, P.n_k);
      if (w.padding && P.n_k > 1) P.k_len[std::size_t(g.range(0, P.batch - 1))] = g.range(1, P.n_k - 1);
    }
    P.scale = k % 2 ? g.real(0.05, 1.5) : 0.0;
    const bool both = w.cap_and_alibi && !w.no_extras && has(caps, PV_ATTEND_SOFTCAP) && has(caps, PV_ATTEND_ALIBI);
    const bool biased = w.bias && has(caps, PV_ATTEND_BIAS),
               cap_bias = biased && w.cap_and_bias && has(caps, PV_ATTEND_SOFTCAP);
    if (both || cap_bias || (has(caps, PV_ATTEND_SOFTCAP) && g.range(0, 2) == 0)) P.softcap = g.real(0.5, 4.0);
    // one_sink: quarters in [-3, 3], exact in every format: the bias it becomes may be stored in
    // float16 (an additive mask as ggml builds it: the panel's panel_attend_f16_mask)
    if (w.one_sink) P.sink.assign(std::size_t(P.h_q), double(g.range(-12, 12)) / 4);
    else if (!w.no_extras && !w.lse && !w.no_sinks && has(caps, PV_ATTEND_SINKS) && g.range(0, 2) == 0)
      for (long h = 0; h < P.h_q; ++h) P.sink.push_back(g.real(-3, 3));
    if (!w.no_extras && has(caps, PV_ATTEND_ALIBI) && (both || g.range(0, 3) == 0) && !w.no_alibi)
      for (long h = 0; h < P.h_q; ++h) P.alibi.push_back(std::ldexp(1.0, -int(8 * (h + 1) / P.h_q)));
    if (biased && (cap_bias || g.range(0, 1))) draw_bias(g, P, cap_bias, w.mask_only);
    P.lse = w.lse || (!w.no_extras && has(caps, PV_ATTEND_LSE) && g.range(0, 1));
    // every tenth case, for a kernel declaring what an empty row holds, rows that see no key and no
    // sink (an item padded to nothing, or a query before the first key under the causal mask: NaN
    // on fully masked rows, pytorch#103749)
    if (conv != la::empty_rows::undeclared && query_empties(k)) {
      const bool padded = !w.padding && !w.no_padding && has(caps, PV_ATTEND_PADDING);
      if (padded) P.k_len[0] = 0;
      else if (P.causal && !w.causal) P.q_start[0] = -1;
      if ((padded || (P.causal && !w.causal)) && !w.one_sink) P.sink.clear();
    }
    const double s = query_scale(k);
    const storage<T> stored(cx);
    for (auto& x : P.q) x = stored(g.real(-s, s));
    for (auto& x : P.k) x = stored(g.real(-s, s));
    for (auto& x : P.v) x = stored(4 * std::pow(10.0, g.real(-1, 1)) * g.real(-1, 1));
    if (w.saturated_cap) {
      // every score away from 0, all within a factor 5/3 of each other: component 0 of each key
      // +-1, of each query +-(4 r + s), r the largest |sum_{l >= 1} q_l k_l| of any row, so that
      // every |x_j| is within [0.75, 1.25] scale |q_0|; the cap at most a 12th of the smallest (a
      // 32nd in float64): every score saturates it (attend.softcap_saturation)
      for (long b = 0; b < P.batch; ++b)
        for (long j = 0; j < P.n_k; ++j)
          for (long kh = 0; kh < P.h_kv; ++kh) P.k[P.ki(b, j, kh, 0)] = g.range(0, 1) ? 1.0 : -1.0;
      double r = 0;
      for (long b = 0; b < P.batch; ++b)
        for (long i = 0; i < P.n_q; ++i)
          for (long h = 0; h < P.h_q; ++h)
            for (long j = 0; j < P.n_k; ++j) {
              double t = 0;
              for (long l = 1; l < P.d; ++l) t += P.q[P.qi(b, i, h, l)] * P.k[P.ki(b, j, la::kv_head(P, h), l)];
              r = std::max(r, std::fabs(t));
            }
      for (long b = 0; b < P.batch; ++b)
        for (long i = 0; i < P.n_q; ++i)
          for (long h = 0; h < P.h_q; ++h) P.q[P.qi(b, i, h, 0)] = stored((g.range(0, 1) ? 1 : -1) * (4 * r + s));
      P.softcap = laws::attend_softcap_saturation::saturating_cap(P, std::is_same_v<T, double> ? 32 : 12);
    }
    if (conv != la::empty_rows::undeclared || !la::any_empty_row(P)) break;
  }
  return P;
}

// instantiated once, in attend_laws.cpp, for the three files of laws
extern template problem draw<float>(const check_run&, rng&, int, std::uint32_t, la::empty_rows, const wants&);
extern template problem draw<double>(const check_run&, rng&, int, std::uint32_t, la::empty_rows, const wants&);

/// Whether out is within the any-order bound of the exact attention of P
/// read as variant w (a wrong reading of the problem the diagnosis names),
/// the bound that of the variant's computation (its visible keys, logits
/// and KV heads).
inline bool matches(const problem& P, const std::vector<double>& out, la::empty_rows conv, const la::units& U,
             const la::variant& w, const std::vector<double>& lse = {}) {
  const auto [E, B] = la::reference_and_bound(P, conv, U, w);
  return laws::attend_reference::compare(P, out, lse, E, B).within();
}

/// The first of attend.reference's wrong readings of P (its variants) that
/// the output and log-sum-exp match; empty when none does.
inline std::string matching_variant(const problem& P, const std::vector<double>& out, const std::vector<double>& lse,
                             la::empty_rows conv, const la::units& U) {
  for (const auto& v : laws::attend_reference::variants(P))
    if (matches(P, out, conv, U, v.w, lse)) return v.name;
  return "";
}

/// The layout hypothesis of a failure: that the kernel ignores the strides of
/// an input laid out otherwise than dense (batch, token, head) in L and reads
/// its buffer as if it were dense (attend_calls::dense_reading). Judged on the
/// rows that read no gap (a NaN read as a value: anything may come out
/// there); the class named, or empty.
inline std::string strides_ignored(const problem& P, const layouts& L, const std::vector<double>& out, la::empty_rows conv,
                            const la::units& U, const la::exact& Ep, const la::bounds& Bp) {
  for (std::size_t t = 0; t < 3; ++t) {
    const layout& x = layout_of(L, t);
    const auto [tokens, heads, last] = attend_calls::dims_of(P, t);
    const layout D = dense_layout(P.batch, tokens, heads, last);
    if (x.s[0] == D.s[0] && x.s[1] == D.s[1] && x.s[2] == D.s[2]) continue;
    problem R = P;
    std::vector<double>& seen = t == 0 ? R.q : t == 1 ? R.k : R.v;
    const std::vector<double>& given = t == 0 ? P.q : t == 1 ? P.k : P.v;
    seen = dense_reading(given, x, P.batch, tokens, heads, last);
    bool differs = false;  // a layout whose addresses are the dense ones (one head) reads the same values
    for (std::size_t e = 0; e < seen.size() && !differs; ++e)
      differs = !(seen[e] == given[e] || (std::isnan(seen[e]) && std::isnan(given[e])));
    if (!differs) continue;
    const auto [E, B] = la::reference_and_bound(R, conv, U);
    laws::attend_compare::worst w, wp;
    bool judged = false;
    for (std::size_t e = 0; e < E.out.size(); ++e)
      if (!laws::attend_compare::is_nan(E.out[e])) {
        judged = true;
        laws::attend_compare::raise(w, e, false, out[e], E.out[e], B.out[e]);
        laws::attend_compare::raise(wp, e, false, out[e], Ep.out[e], Bp.out[e]);
      }
    // the output agrees with the dense reading on those rows, and not with the problem as given
    if (judged && w.within() && !wp.within())
      return std::string("layout: the kernel ignores ") + kTensorNames[t] + "'s strides: laid out " + x.name +
             ", its output is what reading " + kTensorNames[t] + "'s buffer as dense (batch, token, head) gives "
             "(non-contiguous != contiguous: FlashAttention PR 1562)";
  }
  return "";
}

/// The query-block hypothesis of a failure: the kernel never wrote the rows
/// from some i0 on, in every item and head (their bytes are still the NaN the
/// output buffer was filled with: `unwritten`, attend_calls::unwritten_rows),
/// and wrote every row before i0 within its bound (E, B). Named with the
/// blocks of B = 16, 32, ... rows whose last partial block it is: a grid of
/// floor(n_q / B) blocks where a ceiling was meant. The class named, or empty.
inline std::string rows_unwritten(const problem& P, const std::vector<double>& out, const la::exact& E, const la::bounds& B,
                           const std::vector<char>& unwritten) {
  if (unwritten.empty()) return "";
  long i0 = P.n_q;
  for (long b = 0; b < P.batch; ++b)
    for (long h = 0; h < P.h_q; ++h)
      for (long i = 0; i < P.n_q; ++i)
        if (unwritten[P.li(b, h, i)]) i0 = std::min(i0, i);
  if (i0 == 0 || i0 == P.n_q) return "";
  laws::attend_compare::worst w;
  for (long b = 0; b < P.batch; ++b)
    for (long h = 0; h < P.h_q; ++h)
      for (long i = 0; i < P.n_q; ++i) {
        if ((unwritten[P.li(b, h, i)] != 0) != (i >= i0)) return "";  // not a suffix of rows in every head
        if (i < i0)
          for (long c = 0; c < P.d_v; ++c) {
            const std::size_t e = P.oi(b, i, h, c);
            laws::attend_compare::raise(w, e, false, out[e], E.out[e], B.out[e]);
          }
      }
  if (!w.within()) return "";
  std::string blocks;
  for (long size = 16; size <= i0; size *= 2)
    if (P.n_q / size * size == i0) blocks += (blocks.empty() ? "" : ", ") + std::to_string(size);
  std::string s = "rows never written: from query row " + std::to_string(i0) + " of " + std::to_string(P.n_q) +
                  " on, in every item and head, the output still holds the NaN its buffer was filled with; "
                  "every row before is right";
  if (!blocks.empty())
    s += " (query rows in blocks of " + blocks + " and a grid of floor(n_q / block) blocks: the last partial "
         "block dropped, a floor where a ceiling was meant; tiny-flash-attention#12, TileOPs PR 6)";
  return s;
}

/// The cases of a law that makes one attend() call per case: case k's
/// problem from make(g, k) (its layouts drawn after it, from the same
/// generator), the calls run, and judge(P, layouts, out, lse, k, desc,
/// result) on the output of case k read back dense (and the call's raw
/// result); judge returns whether the case holds.
template <class T, class Make, class Judge>
void one_call_cases(law_run& L, const std::vector<int>& ks, Make make, Judge judge) {
  std::vector<problem> ps;
  std::vector<layouts> ls;
  for (int k : ks) {
    auto g = L.rng_for(k);
    ps.push_back(make(g, k));
    ls.push_back(draw_layouts(g, ps.back()));
    L.add(attend_call<T>(ps.back(), ls.back()));
  }
  L.run();
  L.each_case(ks, 1, [&](std::size_t i) { return describe(ps[i], ls[i]); },
              [&](std::size_t i, const describer& desc) {
                std::vector<double> out, lse;
                read_back<T>(ps[i], ls[i], L.results()[i], out, lse);
                return judge(ps[i], ls[i], out, lse, ks[i], desc, L.results()[i]);
              });
}

/// The cases of a law that compares two attend() calls per case: case k's
/// pair of problems from make(g, k), the layouts of the first then of the
/// second drawn after them from the same generator, both calls run, and
/// judge(i, P, Q, a, la, b, lb, desc) on their outputs read back dense (i the
/// case's index in ks); judge returns whether the case holds. `describe_pair`
/// the text of case i from its problems and layouts.
template <class T, class Make, class Describe, class Judge>
void two_call_cases(law_run& L, const std::vector<int>& ks, Make make, Describe describe_pair, Judge judge) {
  std::vector<problem> ps, rs;
  std::vector<layouts> ls, lr;
  for (int k : ks) {
    auto g = L.rng_for(k);
    auto [P, R] = make(g, k);
    ps.push_back(std::move(P));
    rs.push_back(std::move(R));
    ls.push_back(draw_layouts(g, ps.back()));
    lr.push_back(draw_layouts(g, rs.back()));
    L.add(attend_call<T>(ps.back(), ls.back()));
    L.add(attend_call<T>(rs.back(), lr.back()));
  }
  L.run();
  L.each_case(ks, 2, [&](std::size_t i) { return describe_pair(ps[i], ls[i], rs[i], lr[i]); },
              [&](std::size_t i, const describer& desc) {
                std::vector<double> a, b, la_, lb;
                read_back<T>(ps[i], ls[i], L.results()[2 * i], a, la_);
                read_back<T>(rs[i], lr[i], L.results()[2 * i + 1], b, lb);
                return judge(i, ps[i], rs[i], a, la_, b, lb, desc);
              });
}

/// The laws that compare calls of one problem written otherwise (attend_call_laws.cpp).
template <class T>
law_result law_batch_invariance(const check_run& cx);
template <class T>
law_result law_support(const check_run& cx);
template <class T>
law_result law_lse_merge(const check_run& cx);
template <class T>
law_result law_attend_convex_hull(const check_run& cx);
template <class T>
law_result law_independence(const check_run& cx);

/// The laws of the cache, the layout and the scalings, and those that compare
/// a call with a twin call (attend_twin_laws.cpp).
template <class T>
law_result law_cache(const check_run& cx);
template <class T>
law_result law_layout(const check_run& cx);
template <class T>
law_result law_homogeneity(const check_run& cx);
template <class T>
law_result law_permutation(const check_run& cx);
template <class T>
law_result law_packing(const check_run& cx);
template <class T>
law_result law_self_merge(const check_run& cx);
template <class T>
law_result law_sink_as_key(const check_run& cx);
template <class T>
law_result law_softcap_saturation(const check_run& cx);

}  // namespace pv::blackbox::attend_kit
