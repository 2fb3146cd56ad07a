// The attend laws of `posverify check`, through the C interface (attend(),
// ABI version 4): how each draws its problems from the capabilities the
// kernel declares, calls the kernel with its tensors laid out with strides
// (attend_calls.h) and reports an entry. attend.models, the shapes of shipped
// models, is attend_models.cpp.
// The laws themselves -- statement, tolerance, body -- are in laws/attend/:
// the problem, its exact reference and the any-order bound (problem.h),
// attend.reference, attend.gqa_repeat, attend.causal_prefix,
// attend.decode_rows, attend.padding, attend.support, attend.lse_merge,
// attend.convex_hull, attend.independence, attend.cache, attend.layout,
// attend.homogeneity, attend.batch_invariance, attend.permutation,
// attend.packing, attend.self_merge, attend.sink_as_key and
// attend.softcap_saturation.
#include "blackbox/attend_calls.h"
#include "blackbox/declines.h"
#include "blackbox/law_run.h"
#include "blackbox/laws.h"
#include "laws/attend/batch_invariance.h"
#include "laws/attend/cache.h"
#include "laws/attend/causal_prefix.h"
#include "laws/attend/convex_hull.h"
#include "laws/attend/decode_rows.h"
#include "laws/attend/fast_bound.h"
#include "laws/attend/gqa_repeat.h"
#include "laws/attend/homogeneity.h"
#include "laws/attend/independence.h"
#include "laws/attend/layout.h"
#include "laws/attend/lse_merge.h"
#include "laws/attend/packing.h"
#include "laws/attend/padding.h"
#include "laws/attend/permutation.h"
#include "laws/attend/problem.h"
#include "laws/attend/reference.h"
#include "laws/attend/self_merge.h"
#include "laws/attend/sink_as_key.h"
#include "laws/attend/softcap_saturation.h"
#include "laws/attend/support.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

namespace pv::blackbox {
namespace {

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

bool has(std::uint32_t caps, std::uint32_t bit) { return (caps & bit) != 0; }

/// Whether case k draws its queries across blocks of 64 rows (n_q 65, 129,
/// 64 and 127 in turn): one case in 25, the seventh.
bool query_blocks(int k) { return k % 25 == 6; }

/// Whether case k has rows that see no key, for a kernel declaring an
/// empty-row convention: one case in ten, the ninth.
bool query_empties(int k) { return k % 10 == 8; }

/// The magnitude of case k's queries and keys (drawn in [-s, s]).
double query_scale(int k) {
  static const double scales[] = {1, 3, 0.3, 8};
  return scales[k % 4];
}

/// An explicit bias for P, one per item or one shared (when batch > 1, either
/// way): a keep-mask (0 or -inf), values, or values with masked keys; the
/// values quarters in [-4, 4], exact in every format (the bound need not
/// count their storage). `masked`: some keys masked; `mask_only`: a keep-mask.
void draw_bias(rng& g, problem& P, bool masked, bool mask_only) {
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

/// Whether out is within the any-order bound of the exact attention of P
/// read as variant w (a wrong reading of the problem the diagnosis names),
/// the bound that of the variant's computation (its visible keys, logits
/// and KV heads).
bool matches(const problem& P, const std::vector<double>& out, la::empty_rows conv, const la::units& U,
             const la::variant& w, const std::vector<double>& lse = {}) {
  const auto [E, B] = la::reference_and_bound(P, conv, U, w);
  return laws::attend_reference::compare(P, out, lse, E, B).within();
}

/// The first of attend.reference's wrong readings of P (its variants) that
/// the output and log-sum-exp match; empty when none does.
std::string matching_variant(const problem& P, const std::vector<double>& out, const std::vector<double>& lse,
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
std::string strides_ignored(const problem& P, const layouts& L, const std::vector<double>& out, la::empty_rows conv,
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
std::string rows_unwritten(const problem& P, const std::vector<double>& out, const la::exact& E, const la::bounds& B,
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

template <class T>
law_result law_attend_reference(const check_run& cx) {
  namespace law = laws::attend_reference;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  const auto U = units<T>(cx);
  one_call_cases<T>(
      L, ks,
      [&](rng& g, int k) {
        // every fourth case caps and adds ALiBi both, where the kernel declares
        // them: the order of the two (a cap after the bias) shows only then
        wants w;
        w.cap_and_alibi = k % 4 == 1;
        w.query_blocks = true;
        // an explicit bias where declared, every fourth case with the softcap and masked keys (the
        // order of the two shows only then)
        w.bias = true;
        w.cap_and_bias = k % 4 == 3;
        return draw<T>(cx, g, k, cx.lib.attend_caps, conv, w);
      },
      [&](const problem& P, const layouts& lay, const std::vector<double>& out, const std::vector<double>& lse, int k,
          const describer& desc, const result& R) {
        const auto [E, B] = la::reference_and_bound(P, conv, U);
        const auto w = law::compare(P, out, lse, E, B);
        const bool ok = record(L, k, P, w, "exact", desc);
        if (!ok) {
          // the last rows never written (a grid of query blocks without its partial block)
          std::string dg = rows_unwritten(P, out, E, B, attend_calls::unwritten_rows<T>(P, lay, R));
          // which wrong reading of the problem the output matches
          if (dg.empty()) dg = matching_variant(P, out, lse, conv, U);
          // a tensor's strides ignored
          if (dg.empty()) dg = strides_ignored(P, lay, out, conv, U, E, B);
          // the empty rows: another convention than the one declared
          for (const auto other : {la::empty_rows::zeros, la::empty_rows::nan, la::empty_rows::mean})
            if (dg.empty() && other != conv && la::any_empty_row(P) && [&] {
                  const auto [Eo, Bo] = la::reference_and_bound(P, other, U);
                  return law::compare(P, out, lse, Eo, Bo).within();
                }())
              dg = std::string("empty-row convention: its empty rows hold ") + la::to_string(other) +
                   ", it declares " + la::to_string(conv);
          // an error the size of a coarser accuracy class (float16 arithmetic
          // behind a float16 storage dtype): advice once every attend law
          // passes with it (run.cpp, verify_advice tries them in order); only
          // when no wrong reading of the problem explains the output
          if (dg.empty()) {
            std::string within;
            for (const char* name : kAccuracyClasses) {
              check_run c = cx;
              c.accuracy = parse_accuracy(name);
              // a 16-bit wire stores in its own format: only deeper classes of it
              const bool other_format = cx.wire != PV_F32 && c.accuracy.precision != cx.accuracy.precision;
              if (other_format || !coarser(c.accuracy, cx.accuracy)) continue;
              if (law::compare(P, out, lse, E, la::any_order(P, conv, units<T>(c))).within()) {
                within += (within.empty() ? "" : " or ") + cause_of(c.accuracy);
                L.result_ref().advise.push_back(name);
              }
            }
            if (!within.empty())
              dg = "its error is within the bound of " + within + ", not of " +
                   (cx.accuracy.u > 0 ? cause_of(cx.accuracy) : std::string(type_name<T>()) + " arithmetic");
          }
          L.diagnose(dg.empty() ? "no single cause found among the alignment, the window's ends, the GQA "
                                   "mapping, the scale, the softcap, the ALiBi slopes, the explicit bias, the sinks, "
                                   "the padding, the empty rows and the accuracy classes"
                                 : dg);
        }
        return ok;
      });
  return L.finish();
}

template <class T>
law_result law_gqa_repeat(const check_run& cx) {
  namespace law = laws::attend_gqa_repeat;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  const auto U = units<T>(cx);
  wants w;
  w.gqa = true;
  w.bias = true;
  two_call_cases<T>(
      L, ks,
      [&](rng& g, int k) {
        problem P = draw<T>(cx, g, k, cx.lib.attend_caps | PV_ATTEND_GQA, conv, w);
        problem R = law::repeated(P);
        return std::pair{std::move(P), std::move(R)};
      },
      [](const problem& P, const layouts& l, const problem&, const layouts&) { return describe(P, l); },
      [&](std::size_t i, const problem& P, const problem&, const std::vector<double>& a, const std::vector<double>&,
          const std::vector<double>& b, const std::vector<double>&, const describer& desc) {
        const bool ok =
            record(L, ks[i], P, law::compare(a, b, la::any_order(P, conv, U)), "with K/V repeated to h_q", desc);
        if (!ok && matches(P, a, conv, U, la::variant{.tile = true})) L.diagnose(laws::attend_reference::kGqaTile);
        return ok;
      });
  return L.finish();
}

template <class T>
law_result law_causal_prefix(const check_run& cx) {
  namespace law = laws::attend_causal_prefix;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  std::vector<problem> ps, cs;
  std::vector<layouts> ls;
  std::vector<long> cuts;
  wants w;
  w.causal = true;
  w.query_blocks = true;
  w.bias = true;  // a row whose later keys the bias masks is shielded too
  for (int k : ks) {
    auto g = L.rng_for(k);
    ps.push_back(draw<T>(cx, g, k, cx.lib.attend_caps | PV_ATTEND_CAUSAL, conv, w));
    const problem& P = ps.back();
    // a cut after the first row's position, so that some row is compared
    long lo = P.n_k;
    for (long q : P.q_start) lo = std::min(lo, q + 1);
    const long cut = g.range(std::min(lo, P.n_k - 1), P.n_k - 1);
    cuts.push_back(std::max(0L, cut));
    const double big = k % 2 ? 1e3 : 30;
    const storage<T> stored(cx);
    cs.push_back(law::changed_after(P, cuts.back(), [&](std::size_t) { return stored(g.real(-big, big)); }));
    ls.push_back(draw_layouts(g, P));
    L.add(attend_call<T>(P, ls.back()));
    L.add(attend_call<T>(cs.back(), ls.back()));
  }
  L.run();
  const auto U = units<T>(cx);
  L.each_case(ks, 2,
              [&](std::size_t i) {
                return describe(ps[i], ls[i]) + "\ncut = " + std::to_string(cuts[i]) +
                       "\nchanged k = " + list_text(cs[i].k) + "\nchanged v = " + list_text(cs[i].v);
              },
              [&](std::size_t i, const describer& desc) {
                std::vector<double> a, b, la_, lb;
                read_back<T>(ps[i], ls[i], L.results()[2 * i], a, la_);
                read_back<T>(cs[i], ls[i], L.results()[2 * i + 1], b, lb);
                const long e = law::first_difference(ps[i], cuts[i], conv, a, b);
                if (e < 0) {
                  L.within(ks[i], hp(0), hp(0), "every shielded row bit for bit", desc);
                  return true;
                }
                L.fail(ks[i],
                       entry_of(ps[i], std::size_t(e), false) + " sees no key from position " +
                           std::to_string(cuts[i]) + " on, yet changed from " + to_decimal(a[std::size_t(e)]) +
                           " to " + to_decimal(b[std::size_t(e)]) +
                           " when only those keys and values changed (it reads keys it may not see)",
                       desc);
                if (matches(ps[i], a, conv, U, la::variant{.prefill_not_causal = true}))
                  L.diagnose(laws::attend_reference::kPrefillNotCausal);
                return false;
              });
  return L.finish();
}

template <class T>
law_result law_decode_rows(const check_run& cx) {
  namespace law = laws::attend_decode_rows;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  std::vector<problem> ds, fs;
  std::vector<layouts> ld, lf;
  wants w;
  w.causal = true;
  w.no_padding = true;
  w.bias = true;
  for (int k : ks) {
    auto g = L.rng_for(k);
    problem D = draw<T>(cx, g, k, cx.lib.attend_caps | PV_ATTEND_CAUSAL, conv, w);
    if (D.n_q > D.n_k) {  // a decode step sits at the end of its keys
      const problem drawn = D;
      D.n_q = D.n_k;
      D.q.resize(std::size_t(D.batch * D.n_q * D.h_q * D.d));
      la::carry_bias(drawn, D, 0);
    }
    for (auto& q : D.q_start) q = D.n_k - D.n_q;
    la::keep_own_key(D);  // its rows moved: none empty (the square call's earlier rows likewise)
    const double s = 3;
    const storage<T> stored(cx);
    problem F = law::square(D, [&](std::size_t) { return stored(g.real(-s, s)); });
    ld.push_back(draw_layouts(g, D));
    lf.push_back(draw_layouts(g, F));
    L.add(attend_call<T>(D, ld.back()));
    L.add(attend_call<T>(F, lf.back()));
    ds.push_back(std::move(D));
    fs.push_back(std::move(F));
  }
  L.run();
  const auto U = units<T>(cx);
  L.each_case(ks, 2, [&](std::size_t i) { return "decode call:\n" + describe(ds[i], ld[i]) + "\nsquare call:\n" + describe(fs[i], lf[i]); },
              [&](std::size_t i, const describer& desc) {
                std::vector<double> a, b, la_, lb;
                read_back<T>(ds[i], ld[i], L.results()[2 * i], a, la_);
                read_back<T>(fs[i], lf[i], L.results()[2 * i + 1], b, lb);
                // the square call's bound on the rows compared only (its last n_q)
                la::row_set last(fs[i].lse_size(), 0);
                for (long b = 0; b < fs[i].batch; ++b)
                  for (long h = 0; h < fs[i].h_q; ++h)
                    for (long r = fs[i].n_q - ds[i].n_q; r < fs[i].n_q; ++r) last[fs[i].li(b, h, r)] = 1;
                const auto Bd = la::any_order(ds[i], conv, U), Bf = la::any_order(fs[i], conv, U, &last);
                const bool ok = record(L, ks[i], ds[i], law::compare(ds[i], fs[i], a, b, Bd, Bf),
                                       "the square causal call's matching row", desc);
                if (!ok) {
                  if (matches(ds[i], a, conv, U, la::variant{.top_left = true}))
                    L.diagnose("causal alignment: the decode rows are aligned top-left (query 0 at position 0) "
                                "instead of at q_start = n_k - n_q = " +
                                    std::to_string(ds[i].n_k - ds[i].n_q));
                  else if (matches(fs[i], b, conv, U, la::variant{.prefill_not_causal = true}))
                    L.diagnose(laws::attend_reference::kPrefillNotCausal);
                }
                return ok;
              });
  return L.finish();
}

template <class T>
law_result law_padding(const check_run& cx) {
  namespace law = laws::attend_padding;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  std::vector<problem> ps;
  std::vector<std::vector<problem>> items;
  std::vector<layouts> ls;
  std::vector<std::vector<layouts>> li;
  wants w;
  w.padding = true;
  w.no_window = true;
  w.bias = true;
  for (int k : ks) {
    auto g = L.rng_for(k);
    problem P = draw<T>(cx, g, k, cx.lib.attend_caps | PV_ATTEND_PADDING, conv, w);
    if (P.causal)
      for (auto& q : P.q_start) q = std::max(q, 0L);
    ps.push_back(law::poisoned(P));
    ls.push_back(draw_layouts(g, P));
    items.emplace_back();
    li.emplace_back();
    for (long b = 0; b < P.batch; ++b) {
      items.back().push_back(law::item(P, b));
      li.back().push_back(draw_layouts(g, items.back().back()));
    }
  }
  // every case has the same number of calls (the runner's cases are
  // fixed-size): the padded call, then one per item, the last item repeated
  // up to the largest batch
  std::size_t per = 1;
  for (const auto& it : items) per = std::max(per, 1 + it.size());
  for (std::size_t i = 0; i < ks.size(); ++i) {
    L.add(attend_call<T>(ps[i], ls[i]));
    for (std::size_t b = 0; b + 1 < per; ++b) {
      const std::size_t bb = std::min(b, items[i].size() - 1);
      L.add(attend_call<T>(items[i][bb], li[i][bb]));
    }
  }
  L.run();
  const auto U = units<T>(cx);
  L.each_case(ks, per, [&](std::size_t i) { return describe(ps[i], ls[i]); },
              [&](std::size_t i, const describer& desc) {
                const problem& P = ps[i];
                std::vector<double> pad, lp;
                read_back<T>(P, ls[i], L.results()[per * i], pad, lp);
                const auto Bp = la::any_order(P, conv, U);
                laws::attend_compare::worst w2;
                for (long b = 0; b < P.batch; ++b) {
                  const problem& I = items[i][std::size_t(b)];
                  std::vector<double> alone, lse_b;
                  read_back<T>(I, li[i][std::size_t(b)], L.results()[per * i + 1 + std::size_t(b)], alone, lse_b);
                  law::compare_item(w2, P, b, I, pad, alone, Bp, la::any_order(I, conv, U));
                }
                return record(L, ks[i], P, w2, "the item alone without its padded keys", desc);
              });
  return L.finish();
}

template <class T>
law_result law_batch_invariance(const check_run& cx) {
  namespace law = laws::attend_batch_invariance;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  const bool fixed = has(cx.lib.attend_caps, PV_ATTEND_FIXED_SCHEDULE);
  std::vector<problem> ps, ws;
  std::vector<std::vector<problem>> items;
  wants w;
  w.several = true;
  w.query_blocks = true;
  w.bias = true;
  for (int k : ks) {
    auto g = L.rng_for(k);
    // the padded keys and values NaN in every call: memory that must not be read
    ps.push_back(laws::attend_padding::poisoned(draw<T>(cx, g, k, cx.lib.attend_caps, conv, w)));
    ws.push_back(law::wide(ps.back()));
    items.emplace_back();
    for (long b = 0; b < ps.back().batch; ++b) items.back().push_back(law::alone(ps.back(), b));
  }
  // every case has the same number of calls: the batch call twice, the wide
  // call, then each item alone, the last item repeated up to the largest
  // batch; every tensor dense (the layout is attend.layout's)
  std::size_t per = 3;
  for (const auto& it : items) per = std::max(per, 3 + it.size());
  for (std::size_t i = 0; i < ks.size(); ++i) {
    L.add(attend_call<T>(ps[i], dense_layouts(ps[i])));
    L.add(attend_call<T>(ps[i], dense_layouts(ps[i])));
    L.add(attend_call<T>(ws[i], dense_layouts(ws[i])));
    for (std::size_t b = 0; b + 3 < per; ++b) {
      const problem& I = items[i][std::min(b, items[i].size() - 1)];
      L.add(attend_call<T>(I, dense_layouts(I)));
    }
  }
  L.run();
  const auto U = units<T>(cx);
  L.each_case(ks, per, [&](std::size_t i) { return describe(ps[i], dense_layouts(ps[i])); },
              [&](std::size_t i, const describer& desc) {
                const problem &P = ps[i], &W = ws[i];
                std::vector<double> a, la_, again, l_again, wide, l_wide;
                read_back<T>(P, dense_layouts(P), L.results()[per * i], a, la_);
                read_back<T>(P, dense_layouts(P), L.results()[per * i + 1], again, l_again);
                read_back<T>(W, dense_layouts(W), L.results()[per * i + 2], wide, l_wide);
                std::vector<std::vector<double>> alone(std::size_t(P.batch)), l_alone(std::size_t(P.batch));
                for (long b = 0; b < P.batch; ++b) {
                  const problem& I = items[i][std::size_t(b)];
                  read_back<T>(I, dense_layouts(I), L.results()[per * i + 3 + std::size_t(b)], alone[std::size_t(b)],
                               l_alone[std::size_t(b)]);
                }
                // the comparisons: the call made again; then, for each item, its rows in the batch call
                // and in each slot of the wide call that holds it, against the item alone
                struct pair_of {
                  std::string where;  ///< the other call, in words
                  long item;          ///< the item whose rows these are
                  bool wide;          ///< in the wide call (else in the batch call)
                  std::vector<double> out, lse;
                };
                std::vector<pair_of> others;
                for (long b = 0; b < P.batch; ++b) {
                  pair_of in_batch{"in the call of " + std::to_string(P.batch) + " items", b, false, {}, {}};
                  law::item_rows(P, b, a, la_, in_batch.out, in_batch.lse);
                  others.push_back(std::move(in_batch));
                  for (long s = b; s < W.batch; s += P.batch) {
                    pair_of in_wide{"as item " + std::to_string(s) + " of the call of " + std::to_string(W.batch) +
                                        " items (the batch repeated)",
                                    b, true, {}, {}};
                    law::item_rows(W, s, wide, l_wide, in_wide.out, in_wide.lse);
                    others.push_back(std::move(in_wide));
                  }
                }
                if (fixed) {
                  const auto all = [](long, long) { return true; };
                  const std::vector<double>*x = &a, *lx = &la_, *y = &again, *ly = &l_again;
                  std::string where = "when the same call is made again";
                  long item = -1;
                  auto moved = laws::attend_independence::moved(P, all, a, la_, again, l_again);
                  for (const pair_of& o : others) {
                    if (!moved.empty()) break;
                    const problem& I = items[i][std::size_t(o.item)];
                    moved = laws::attend_independence::moved(I, all, o.out, o.lse, alone[std::size_t(o.item)],
                                                             l_alone[std::size_t(o.item)]);
                    if (!moved.empty()) {
                      x = &o.out, lx = &o.lse, y = &alone[std::size_t(o.item)],
                      ly = &l_alone[std::size_t(o.item)];
                      where = o.where;
                      item = o.item;
                    }
                  }
                  if (moved.empty()) {
                    L.within(ks[i], hp(0), hp(0), "every row bit for bit: again, in a wider call and alone", desc);
                    return true;
                  }
                  const laws::attend_independence::moved_row& r = moved.front();
                  const long b = item < 0 ? r.b : item;
                  const std::string row =
                      "row (b " + std::to_string(b) + ", i " + std::to_string(r.i) + ", h " + std::to_string(r.h) + ")";
                  const std::string what =
                      r.in_lse ? "the log-sum-exp" : "output c " + std::to_string(r.entry % std::size_t(P.d_v));
                  const double before = r.in_lse ? (*lx)[r.entry] : (*x)[r.entry],
                               after = r.in_lse ? (*ly)[r.entry] : (*y)[r.entry];
                  L.fail(ks[i],
                         what + " of " + row + " is " + to_decimal(before) +
                             (item < 0 ? " and " + to_decimal(after) + " " + where
                                       : " " + where + " and " + to_decimal(after) + " alone") +
                             " (" + std::to_string(moved.size()) + " rows differ; the kernel declares a fixed schedule)",
                         desc);
                  // the class, verified: a schedule (or timing) only when both readings are within the
                  // bound of the exact rows; else a reading that is wrong in one of the calls
                  const problem& R = item < 0 ? P : items[i][std::size_t(item)];
                  const auto [E, B] = la::reference_and_bound(R, conv, U);
                  const bool both_right = laws::attend_reference::compare(R, *x, {}, E, B).within() &&
                                          laws::attend_reference::compare(R, *y, {}, E, B).within();
                  const la::variant sw{.decode_swap = true};
                  if (both_right)
                    L.diagnose(item < 0 ? "nondeterministic: the same call gives other bits, each within the bound "
                                          "(a reduction whose order depends on timing, atomics), though the kernel "
                                          "declares a fixed schedule"
                                        : "batch-variant schedule: item " + std::to_string(b) + "'s rows change with "
                                          "the batch around them, each within the bound, though the kernel declares a "
                                          "fixed schedule (a tiling or split-KV count chosen from batch x heads, as "
                                          "FlashAttention's num_splits heuristic chooses it; \"Defeating "
                                          "Nondeterminism in LLM Inference\", Thinking Machines Lab 2025)");
                  else if (item >= 0 && la::decode_swapped(P, sw) && matches(P, a, conv, U, sw))
                    L.diagnose(laws::attend_reference::kDecodeSwap);
                  else if (item >= 0)
                    L.diagnose("reads across batch items: item " + std::to_string(b) + "'s rows are not its "
                               "attention in one of the calls, so they depend on what else the call holds (a batch "
                               "stride dropped or overflowed, state carried from one item to the next)");
                  else
                    L.diagnose("the same call gives other values, beyond the bound: state carried from one call to "
                               "the next (a buffer read before it is written, a cache)");
                  return false;
                }
                // no declaration: the call again within 2 B of the first, each item's rows within B + B_alone
                // of the item alone (the wide call's rows have the item's own bound)
                const auto Bp = la::any_order(P, conv, U);
                laws::attend_compare::worst w2;
                for (std::size_t e = 0; e < a.size(); ++e)
                  laws::attend_compare::raise(w2, e, false, again[e], hp(a[e]), Bp.out[e] + Bp.out[e]);
                std::vector<la::bounds> Bi;
                for (const problem& I : items[i]) Bi.push_back(la::any_order(I, conv, U));
                for (const pair_of& o : others) {
                  const la::bounds& B = Bi[std::size_t(o.item)];
                  for (long q = 0; q < P.n_q; ++q)
                    for (long h = 0; h < P.h_q; ++h)
                      for (long c = 0; c < P.d_v; ++c) {
                        const std::size_t f = P.oi(0, q, h, c), e = P.oi(o.item, q, h, c);  // f: one-item index
                        laws::attend_compare::raise(w2, e, false, o.out[f], hp(alone[std::size_t(o.item)][f]),
                                                    (o.wide ? B.out[f] : Bp.out[e]) + B.out[f]);
                      }
                }
                return record(L, ks[i], P, w2, "the same rows again, alone or in a wider call", desc);
              });
  return L.finish();
}

template <class T>
law_result law_support(const check_run& cx) {
  namespace law = laws::attend_support;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  wants w;
  w.no_extras = true;
  w.small_keys = true;
  w.bias = true;
  one_call_cases<T>(
      L, ks, [&](rng& g, int k) { return law::probe(draw<T>(cx, g, k, cx.lib.attend_caps, conv, w)); },
      [&](const problem& P, const layouts&, const std::vector<double>& out, const std::vector<double>&, int k,
          const describer& desc, const result&) {
        law::row_support s;
        if (!law::first_mismatch(P, out, s)) {
          L.within(k, hp(0), hp(0), "every row's support", desc);
          return true;
        }
        std::string msg = "row (b " + std::to_string(s.b) + ", i " + std::to_string(s.i) + ", h " +
                          std::to_string(s.h) + ") at position " +
                          std::to_string(P.q_start[std::size_t(s.b)] + s.i) + " sees keys " +
                          law::ranges(s.got) + ", the mask lets it see " + law::ranges(s.want);
        L.fail(k, msg, desc);
        if (const std::string dg = law::classify(P, out, s.b); !dg.empty()) L.diagnose(dg);
        return false;
      });
  return L.finish();
}

template <class T>
law_result law_lse_merge(const check_run& cx) {
  namespace law = laws::attend_lse_merge;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  std::vector<problem> ps, h1s, h2s;
  std::vector<layouts> lp, l1, l2;
  std::vector<long> cuts;
  wants w;
  w.lse = true;
  w.bias = true;
  for (int k : ks) {
    auto g = L.rng_for(k);
    // a cut at which no row of a half is empty, unless the kernel declares
    // what an empty row holds (it is never sent one otherwise)
    problem P;
    long cut = 0;
    for (int attempt = 0; attempt < 8 && cut == 0; ++attempt) {
      P = draw<T>(cx, g, k, cx.lib.attend_caps | PV_ATTEND_LSE, conv, w);
      const long first = g.range(1, P.n_k - 1);
      for (long t = 0; t < P.n_k - 1 && cut == 0; ++t) {
        const long c = 1 + (first - 1 + t) % (P.n_k - 1);
        if (conv != la::empty_rows::undeclared || !law::a_half_has_an_empty_row(P, c)) cut = c;
      }
    }
    if (cut == 0) {  // no such cut in 8 draws: the same problem without masks or padding
      P.causal = false;
      P.left = P.right = -1;
      for (auto& l : P.k_len) l = P.n_k;
      cut = P.n_k / 2;
    }
    ps.push_back(P);
    cuts.push_back(cut);
    h1s.push_back(law::keys(P, 0, cut));
    h2s.push_back(law::keys(P, cut, P.n_k));
    lp.push_back(draw_layouts(g, ps.back()));
    l1.push_back(draw_layouts(g, h1s.back()));
    l2.push_back(draw_layouts(g, h2s.back()));
    L.add(attend_call<T>(ps.back(), lp.back()));
    L.add(attend_call<T>(h1s.back(), l1.back()));
    L.add(attend_call<T>(h2s.back(), l2.back()));
  }
  L.run();
  const auto U = units<T>(cx);
  L.each_case(ks, 3, [&](std::size_t i) { return describe(ps[i], lp[i]) + "\ncut = " + std::to_string(cuts[i]); },
              [&](std::size_t i, const describer& desc) {
                std::vector<double> o, lse, o1, lse1, o2, lse2;
                read_back<T>(ps[i], lp[i], L.results()[3 * i], o, lse);
                read_back<T>(h1s[i], l1[i], L.results()[3 * i + 1], o1, lse1);
                read_back<T>(h2s[i], l2[i], L.results()[3 * i + 2], o2, lse2);
                if (lse.size() != ps[i].lse_size() || lse1.size() != lse.size() || lse2.size() != lse.size()) {
                  L.fail(ks[i], "a call asked for the log-sum-exp returned none", desc);
                  return false;
                }
                const auto B = la::any_order(ps[i], conv, U), B1 = la::any_order(h1s[i], conv, U),
                           B2 = la::any_order(h2s[i], conv, U);
                const law::side whole{o, lse, B}, a{o1, lse1, B1}, b{o2, lse2, B2};
                const bool ok = record(L, ks[i], ps[i], law::compare(ps[i], a, b, whole),
                                       "the halves at key " + std::to_string(cuts[i]) + " merged by their lse", desc);
                if (!ok && law::compare(ps[i], a, b, whole, 2.0).within())
                  L.diagnose(laws::attend_reference::kLseLog2);
                return ok;
              });
  return L.finish();
}

template <class T>
law_result law_attend_convex_hull(const check_run& cx) {
  namespace law = laws::attend_convex_hull;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  // F: the format V is stored in; A: the arithmetic's (file comment of convex_hull.h)
  const attention_units au = attention_law_units<T>(cx);
  const double F = au.largest_stored, A = au.largest_sum;
  const std::string format = au.coarse ? cx.accuracy.name : std::string(type_name<T>());
  const auto U = units<T>(cx);
  const storage<T> stored(cx);
  const auto make = [&](rng& g, int k) {
    // a keep-mask at most: the weights of the keys a row sees stay nearly equal
    problem P = draw<T>(cx, g, k, cx.lib.attend_caps, conv, {.bias = true, .mask_only = true});
    const double M = law::magnitude(P, F, A);
    for (auto& x : P.q) x = stored(x / 16);  // nearly equal weights
    std::vector<double> sign(std::size_t(P.d_v));
    for (auto& s : sign) s = g.range(0, 1) ? 1.0 : -1.0;
    for (std::size_t e = 0; e < P.v.size(); ++e)
      P.v[e] = stored(sign[e % std::size_t(P.d_v)] * M * g.real(0.5, 1.0));
    return P;
  };
  one_call_cases<T>(
      L, ks, make,
      [&](const problem& P, const layouts&, const std::vector<double>& out, const std::vector<double>&, int k,
          const describer& desc, const result&) {
        hp over = 0;
        const auto w = law::compare(P, out, la::any_order(P, conv, U), &over);
        if (!w.found) return true;
        const bool ok = L.within(k, w.diff, w.bound,
                                 entry_of(P, w.index, false) + ": got " + to_decimal(w.got) +
                                     ", the values it sees end at " + to_decimal(w.other),
                                 desc);
        if (!ok && !std::isfinite(w.got) && over > hp(F))
          L.diagnose(format + " accumulation overflow: every value the row sees is finite and its output "
                              "lies among them, yet it is " + to_decimal(w.got) +
                     "; the unnormalised sum of e^{s_j - m} |v_jc| reaches " + to_decimal(over.convert_to<double>()) +
                     ", past " + to_decimal(F) + ", the largest " + format +
                     " value: a sum of p v kept in " + format + " overflows before the division");
        return ok;
      });
  return L.finish();
}

template <class T>
law_result law_independence(const check_run& cx) {
  namespace law = laws::attend_independence;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  std::vector<problem> ps, is, hs;
  std::vector<layouts> ls;
  std::vector<long> items, heads;
  wants w;
  w.several = true;
  w.query_blocks = true;
  w.bias = true;
  for (int k : ks) {
    auto g = L.rng_for(k);
    // the padded keys and values NaN in every call: memory that must not be read
    const problem P = laws::attend_padding::poisoned(draw<T>(cx, g, k, cx.lib.attend_caps, conv, w));
    items.push_back(g.range(0, P.batch - 1));
    heads.push_back(g.range(0, P.h_kv - 1));
    const double s = k % 2 ? 30 : 3;
    const storage<T> stored(cx);
    const auto fresh = [&](std::size_t) { return stored(g.real(-s, s)); };
    is.push_back(law::item_changed(P, items.back(), fresh));
    hs.push_back(law::head_changed(P, heads.back(), fresh));
    ls.push_back(draw_layouts(g, P));
    L.add(attend_call<T>(P, ls.back()));
    L.add(attend_call<T>(is.back(), ls.back()));
    L.add(attend_call<T>(hs.back(), ls.back()));
    ps.push_back(P);
  }
  L.run();
  const auto U = units<T>(cx);
  L.each_case(ks, 3,
              [&](std::size_t i) {
                return describe(ps[i], ls[i]) + "\nchanged item = " + std::to_string(items[i]) +
                       "\nchanged KV head = " + std::to_string(heads[i]);
              },
              [&](std::size_t i, const describer& desc) {
                const problem& P = ps[i];
                std::vector<double> a, la_, bi, lbi, bh, lbh;
                read_back<T>(P, ls[i], L.results()[3 * i], a, la_);
                read_back<T>(is[i], ls[i], L.results()[3 * i + 1], bi, lbi);
                read_back<T>(hs[i], ls[i], L.results()[3 * i + 2], bh, lbh);
                const long item = items[i], kv = heads[i];
                const auto by_item = law::moved(P, [&](long b, long) { return b != item; }, a, la_, bi, lbi);
                const auto by_head =
                    law::moved(P, [&](long, long h) { return la::kv_head(P, h) != kv; }, a, la_, bh, lbh);
                if (by_item.empty() && by_head.empty()) {
                  L.within(ks[i], hp(0), hp(0), "every row of the other items and KV-head groups bit for bit", desc);
                  return true;
                }
                const bool across_items = !by_item.empty();
                const law::moved_row& r = across_items ? by_item.front() : by_head.front();
                const std::vector<double>& x = across_items ? bi : bh;
                const std::vector<double>& lx = across_items ? lbi : lbh;
                const std::string row = "row (b " + std::to_string(r.b) + ", i " + std::to_string(r.i) + ", h " +
                                        std::to_string(r.h) + ")";
                const std::string what = r.in_lse ? "its log-sum-exp" : entry_of(P, r.entry, false);
                const double before = r.in_lse ? la_[r.entry] : a[r.entry], after = r.in_lse ? lx[r.entry] : x[r.entry];
                L.fail(ks[i],
                       what + " (" + row + ") changed from " + to_decimal(before) + " to " + to_decimal(after) +
                           (across_items ? " when only item " + std::to_string(item) + "'s inputs changed"
                                         : " when only KV head " + std::to_string(kv) +
                                               "'s keys and values and the queries reading it changed") +
                           " (" + std::to_string((across_items ? by_item : by_head).size()) + " rows moved)",
                       desc);
                std::string dg;
                if (across_items) {
                  const la::variant sw{.decode_swap = true};
                  if (la::decode_swapped(P, sw) && matches(P, a, conv, U, sw))
                    dg = laws::attend_reference::kDecodeSwap;
                  else
                    dg = "reads across batch items: item " + std::to_string(r.b) + "'s output depends on item " +
                         std::to_string(item) + "'s inputs (a batch stride dropped or overflowed, or state carried "
                         "from one item to the next)";
                } else if (law::tile_explains(P, kv, by_head)) {
                  dg = laws::attend_reference::kGqaTile;
                } else {
                  dg = "reads across heads: query head " + std::to_string(r.h) + ", which reads KV head " +
                       std::to_string(la::kv_head(P, r.h)) + ", depends on KV head " + std::to_string(kv) +
                       " or the queries of the heads reading it";
                }
                L.diagnose(dg);
                return false;
              });
  return L.finish();
}

template <class T>
law_result law_cache(const check_run& cx) {
  namespace law = laws::attend_cache;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  constexpr std::size_t kSteps = 3;  // two decoding steps and a prefill chunk
  struct step_at {
    long p0, c;
  };
  std::vector<problem> fs;
  std::vector<std::vector<problem>> ss;
  std::vector<std::vector<step_at>> at;
  std::vector<layouts> lf;
  std::vector<std::vector<layouts>> ls;
  wants w;
  w.causal = true;
  w.no_padding = true;
  w.bias = true;  // the prefill's rows take P's pattern, each step its rows and keys of it
  for (int k : ks) {
    auto g = L.rng_for(k);
    const problem P = draw<T>(cx, g, k, cx.lib.attend_caps | PV_ATTEND_CAUSAL, conv, w);
    const double s = query_scale(k);
    const storage<T> stored(cx);
    fs.push_back(law::prefill(P, [&](std::size_t) { return stored(g.real(-s, s)); }));
    const problem& F = fs.back();
    at.emplace_back();
    ss.emplace_back();
    ls.emplace_back();
    for (std::size_t t = 0; t < kSteps; ++t) {
      const long p0 = g.range(0, F.n_k - 1);
      const long c = t + 1 < kSteps ? 1 : g.range(1, std::min(7L, F.n_k - p0));
      at.back().push_back({p0, c});
      ss.back().push_back(law::step(F, p0, c));
    }
    lf.push_back(draw_layouts(g, F));
    for (const problem& S : ss.back()) ls.back().push_back(draw_layouts(g, S));
    L.add(attend_call<T>(F, lf.back()));
    for (std::size_t t = 0; t < kSteps; ++t) L.add(attend_call<T>(ss.back()[t], ls.back()[t]));
  }
  L.run();
  const auto U = units<T>(cx);
  const auto where = [](const step_at& a) {
    return "q_start " + std::to_string(a.p0) + ", " + std::to_string(a.c) + (a.c == 1 ? " query" : " queries") +
           " against a cache of " + std::to_string(a.p0 + a.c) + " keys";
  };
  L.each_case(ks, 1 + kSteps,
              [&](std::size_t i) {
                std::string d = "prefill call:\n" + describe(fs[i], lf[i]);
                for (std::size_t t = 0; t < kSteps; ++t)
                  d += "\nstep " + std::to_string(t) + " (" + where(at[i][t]) + "):\n" + describe(ss[i][t], ls[i][t]);
                return d;
              },
              [&](std::size_t i, const describer& desc) {
                const problem& F = fs[i];
                std::vector<double> fo, fl;
                read_back<T>(F, lf[i], L.results()[(1 + kSteps) * i], fo, fl);
                // the prefill's bound on the rows the steps compare only
                la::row_set compared(F.lse_size(), 0);
                for (const step_at& a : at[i])
                  for (long b = 0; b < F.batch; ++b)
                    for (long h = 0; h < F.h_q; ++h)
                      for (long r = a.p0; r < a.p0 + a.c; ++r) compared[F.li(b, h, r)] = 1;
                const auto Bf = la::any_order(F, conv, U, &compared);
                laws::attend_compare::worst worst;
                std::size_t worst_t = 0;
                std::vector<std::vector<double>> outs(kSteps);
                for (std::size_t t = 0; t < kSteps; ++t) {
                  const problem& S = ss[i][t];
                  std::vector<double> sl;
                  read_back<T>(S, ls[i][t], L.results()[(1 + kSteps) * i + 1 + t], outs[t], sl);
                  laws::attend_compare::worst wt;
                  law::compare(wt, S, at[i][t].p0, F, outs[t], sl, fo, fl, la::any_order(S, conv, U), Bf);
                  if (wt.found && (!worst.found || wt.ratio > worst.ratio)) worst = wt, worst_t = t;
                }
                const step_at& a = at[i][worst_t];
                const problem& S = ss[i][worst_t];
                // the step's row of the worst entry (lse index (b, h, i); output (b, i, h, c))
                const long row = worst.lse ? long(worst.index) % S.n_q : long(worst.index) / S.d_v / S.h_q % S.n_q;
                const bool ok = record(L, ks[i], S, worst,
                                       "in step " + std::to_string(worst_t) + " (" + where(a) + "); the prefill's row " +
                                           std::to_string(a.p0 + row) + " has",
                                       desc);
                if (!ok) {
                  if (matches(F, fo, conv, U, la::variant{.prefill_not_causal = true}))
                    L.diagnose(laws::attend_reference::kPrefillNotCausal);
                  else if (matches(S, outs[worst_t], conv, U, la::variant{.top_left = true}))
                    L.diagnose("causal alignment: the step at q_start = " + std::to_string(a.p0) +
                               " is aligned top-left against its cache (query 0 at position 0, seeing key 0 "
                               "only, as SDPA's is_causal with a KV cache: pytorch#144858)");
                }
                return ok;
              });
  return L.finish();
}

template <class T>
law_result law_layout(const check_run& cx) {
  namespace law = laws::attend_layout;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  // q, k, v, out, each laid out otherwise alone: heads before tokens, then with gaps
  constexpr std::size_t kOthers = 8;
  std::vector<problem> ps;
  std::vector<layouts> dense;
  std::vector<std::vector<layouts>> others;
  for (int k : ks) {
    auto g = L.rng_for(k);
    const problem P = draw<T>(cx, g, k, cx.lib.attend_caps, conv, {.bias = true});
    const layouts D = dense_layouts(P);
    others.emplace_back();
    for (std::size_t o = 0; o < kOthers; ++o) {
      layouts O = D;
      const auto [tokens, heads, last] = attend_calls::dims_of(P, o / 2);
      layout_of(O, o / 2) = attend_calls::strided_layout(g, o % 2 == 0, 1, P.batch, tokens, heads, last);
      others.back().push_back(O);
    }
    L.add(attend_call<T>(P, D));
    for (const layouts& O : others.back()) L.add(attend_call<T>(P, O));
    dense.push_back(D);
    ps.push_back(P);
  }
  L.run();
  const auto U = units<T>(cx);
  L.each_case(ks, 1 + kOthers, [&](std::size_t i) { return describe(ps[i], dense[i]); },
              [&](std::size_t i, const describer& desc) {
                const problem& P = ps[i];
                std::vector<double> d, dl;
                read_back<T>(P, dense[i], L.results()[(1 + kOthers) * i], d, dl);
                const auto B = la::any_order(P, conv, U);
                laws::attend_compare::worst worst;
                std::size_t worst_o = 0;
                std::vector<std::vector<double>> outs(kOthers);
                std::vector<bool> held(kOthers);
                for (std::size_t o = 0; o < kOthers; ++o) {
                  std::vector<double> ol;
                  read_back<T>(P, others[i][o], L.results()[(1 + kOthers) * i + 1 + o], outs[o], ol);
                  const auto w = law::compare(P, d, dl, outs[o], ol, B);
                  held[o] = w.within();
                  if (w.found && (!worst.found || w.ratio > worst.ratio)) worst = w, worst_o = o;
                }
                const std::size_t worst_t = worst_o / 2;
                const char* tensor = kTensorNames[worst_t];
                const layout& x = layout_of(others[i][worst_o], worst_t);
                const bool ok = record(L, ks[i], P, worst,
                                       std::string("with only ") + tensor + " laid out " +
                                           attend_calls::strides_text(x) + "; with every tensor dense it is",
                                       desc);
                if (!ok) {
                  // an input read as if dense, tried first on the call with that tensor's heads before
                  // its tokens (no gap), then on the call with gaps; only where that call failed
                  std::string dg;
                  if (worst_t < 3) {  // an input (out has no reading)
                    const auto E = la::reference(P, conv);
                    for (const std::size_t o : {2 * worst_t, 2 * worst_t + 1})
                      if (dg.empty() && !held[o] && !law::compare(P, d, dl, outs[o], {}, B).within())
                        dg = strides_ignored(P, others[i][o], outs[o], conv, U, E, B);
                  }
                  if (!dg.empty())
                    L.diagnose(dg);
                  else
                    L.diagnose(std::string("layout: the output changes when only ") + tensor + " is laid out " +
                               x.name + ": the kernel mishandles " + tensor + "'s strides");
                }
                return ok;
              });
  return L.finish();
}

template <class T>
law_result law_homogeneity(const check_run& cx) {
  namespace law = laws::attend_homogeneity;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto conv = convention(cx);
  const auto U = units<T>(cx);
  const bool bitwise = law::queries_bitwise(U);
  std::vector<problem> ps, qs, vs;
  std::vector<layouts> ls;
  std::vector<int> fs, es;
  for (int k : ks) {
    auto g = L.rng_for(k);
    const problem P = law::explicit_scale(draw<T>(cx, g, k, cx.lib.attend_caps, conv, {.bias = true}));
    fs.push_back(k % 2 ? 4 : 2);  // even: sqrt(2^-f scale) = 2^{-f/2} sqrt(scale)
    es.push_back(int(g.range(1, 3)));
    qs.push_back(law::queries_scaled(P, fs.back()));
    vs.push_back(law::values_scaled(P, es.back()));
    ls.push_back(draw_layouts(g, P));  // one layout for the three calls: the same operations
    L.add(attend_call<T>(P, ls.back()));
    L.add(attend_call<T>(qs.back(), ls.back()));
    L.add(attend_call<T>(vs.back(), ls.back()));
    ps.push_back(P);
  }
  L.run();
  L.each_case(ks, 3,
              [&](std::size_t i) {
                return describe(ps[i], ls[i]) + "\nqueries scaled by 2^" + std::to_string(fs[i]) + ", scale by 2^-" +
                       std::to_string(fs[i]) + "; values scaled by 2^" + std::to_string(es[i]);
              },
              [&](std::size_t i, const describer& desc) {
                const problem& P = ps[i];
                std::vector<double> a, la_, q, lq, v, lv;
                read_back<T>(P, ls[i], L.results()[3 * i], a, la_);
                read_back<T>(qs[i], ls[i], L.results()[3 * i + 1], q, lq);
                read_back<T>(vs[i], ls[i], L.results()[3 * i + 2], v, lv);
                const int f = fs[i], e = es[i];
                laws::attend_compare::worst wq;
                if (bitwise) {
                  wq = law::compare_queries(a, la_, q, lq, nullptr, nullptr);
                } else {
                  const auto BA = la::any_order(P, conv, U), BQ = la::any_order(qs[i], conv, U);
                  wq = law::compare_queries(a, la_, q, lq, &BA, &BQ);
                }
                const auto wv = law::compare_values(e, a, la_, v, lv, la::underflow(P, conv, U),
                                                    la::underflow(vs[i], conv, U));
                const bool queries_worse = wq.found && (!wv.found || wq.ratio >= wv.ratio);
                const auto& w = queries_worse ? wq : wv;
                const std::string f_text = std::to_string(f), e_text = std::to_string(e);
                const bool ok = record(L, ks[i], P, w,
                                       queries_worse ? "with q scaled by 2^" + f_text + " and the scale by 2^-" + f_text +
                                                           "; the problem's call gave"
                                                     : "with V scaled by 2^" + e_text + "; 2^" + e_text +
                                                           " times the problem's call gives",
                                       desc);
                if (!ok) {
                  if (queries_worse && matches(qs[i], q, conv, U, la::variant{.no_scale = true}))
                    L.diagnose("scale ignored: the output does not stay when q is scaled by 2^" + f_text +
                               " and the scale by 2^-" + f_text + ", and it is the attention with 1/sqrt(d) in "
                               "place of the problem's scale");
                  else if (queries_worse)
                    L.diagnose("the logits are not scale (q . k): the output moves when q is scaled by 2^" + f_text +
                               " and the scale by 2^-" + f_text + " (a scale applied twice or not at all, a score "
                               "clamped or a constant added at a magnitude that does not scale)");
                  else if (!w.lse && !std::isfinite(w.got) && std::isfinite(w.other))
                    L.diagnose("overflow: with V scaled by 2^" + e_text + " the output is " + to_decimal(w.got) +
                               " where 2^" + e_text + " times the problem's is " + to_decimal(w.other) +
                               ": an accumulator of p v narrower than the values it sums");
                  else
                    L.diagnose(w.lse ? "the log-sum-exp moves when only V is scaled (it reads V)"
                                     : "the output is not linear in V: scaled by 2^" + e_text + ", it is not 2^" +
                                           e_text + " times the problem's");
                }
                return ok;
              });
  return L.finish();
}

/// A random permutation of 0 .. n-1 (Fisher-Yates).
std::vector<long> draw_permutation(rng& g, long n) {
  std::vector<long> p(static_cast<std::size_t>(n));
  for (long i = 0; i < n; ++i) p[std::size_t(i)] = i;
  for (long i = n - 1; i > 0; --i) std::swap(p[std::size_t(i)], p[std::size_t(g.range(0, i))]);
  return p;
}

/// The diagnosis of a law comparing a call with the flags (P, its out and
/// lse) with a call of the same rows with the explicit bias (R): which is off
/// its exact value, and by which reading of its problem (attend.reference's
/// variants); empty when neither is.
std::string which_call_is_off(const problem& P, const std::vector<double>& a, const std::vector<double>& la_,
                              const problem& R, const std::vector<double>& b, const std::vector<double>& lb,
                              la::empty_rows conv, const la::units& U, const std::string& other) {
  const auto off = [&](const problem& X, const std::vector<double>& out, const std::vector<double>& lse) {
    if (matches(X, out, conv, U, {}, lse)) return std::string();
    const std::string v = matching_variant(X, out, lse, conv, U);
    if (v.empty() && X.varlen.packed() && matches(laws::attend_packing::keys_from_query_offsets(P), out, conv, U, {}))
      return std::string("the packed keys cut with the queries' offsets (cu_seqlens_q read as cu_seqlens_k)");
    return v.empty() ? std::string("off its exact value, no single cause found") : v;
  };
  const std::string flags = off(P, a, la_), bias = off(R, b, lb);
  if (flags.empty() && !bias.empty()) return "the " + other + " is wrong, the call with the flags right: " + bias;
  if (!flags.empty() && bias.empty()) return "the call with the flags is wrong, the " + other + " right: " + flags;
  if (!flags.empty() && flags == bias) return "both calls are wrong, alike: " + flags;
  if (!flags.empty()) return "both calls are wrong: with the flags, " + flags + "; the " + other + ", " + bias;
  return "";
}

/// The cases of a law comparing the call of a drawn problem P (with its
/// flags; no empty rows drawn: they hold the convention, judged by
/// attend.reference) with a call R = make(g, P) of the same rows written with
/// the explicit bias: compare(i, P, R, a, la, b, lb, B, B_R) judges case i
/// (a, la: P's call; b, lb: R's), `what` names R's call ("permuted call with
/// the explicit bias") and `against` P's row in a finding; on a failure,
/// which_call_is_off.
template <class T, class Make, class Compare>
void bias_twin_cases(law_run& L, const check_run& cx, const std::vector<int>& ks, const wants& w, const std::string& what,
                     const std::string& against, Make make, Compare compare) {
  const auto conv = convention(cx);
  const auto U = units<T>(cx);
  two_call_cases<T>(
      L, ks,
      [&](rng& g, int k) {
        problem P = draw<T>(cx, g, k, cx.lib.attend_caps | w.asks, la::empty_rows::undeclared, w);
        problem R = make(g, P);
        return std::pair{std::move(P), std::move(R)};
      },
      [&](const problem& P, const layouts& l, const problem& R, const layouts& lr) {
        return describe(P, l) + "\nthe " + what + ":\n" + describe(R, lr);
      },
      [&](std::size_t i, const problem& P, const problem& R, const std::vector<double>& a,
          const std::vector<double>& la_, const std::vector<double>& b, const std::vector<double>& lb,
          const describer& desc) {
        const auto wc = compare(i, P, R, a, la_, b, lb, la::any_order(P, conv, U), la::any_order(R, conv, U));
        if (record(L, ks[i], R, wc, against, desc)) return true;
        if (const std::string dg = which_call_is_off(P, a, la_, R, b, lb, conv, U, what); !dg.empty())
          L.diagnose(dg);
        return false;
      });
}

template <class T>
law_result law_permutation(const check_run& cx) {
  namespace law = laws::attend_permutation;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  std::vector<std::vector<long>> pis;  // case i's permutation of the queries
  wants w;
  w.bias = true;
  w.no_alibi = true;
  bias_twin_cases<T>(
      L, cx, L.case_indices(), w, "permuted call with the explicit bias", "the row of the call with the flags",
      [&](rng& g, const problem& P) {
        pis.push_back(draw_permutation(g, P.n_q));
        return law::permuted(law::as_bias(P), pis.back(), draw_permutation(g, P.n_k));
      },
      [&](std::size_t i, const problem& P, const problem&, const auto& a, const auto& la_, const auto& b,
          const auto& lb, const la::bounds& B, const la::bounds& BR) {
        return law::compare(P, pis[i], a, la_, b, lb, B, BR);
      });
  return L.finish();
}

/// A law of one twin call whose twin is a function of P alone (the law's own:
/// packed, twice, sink_as_key, doubled), judged by the law's compare: the
/// laws below differ only in these and in what they draw.
using twin_of = problem (*)(const problem&);
using twin_compare = laws::attend_compare::worst (*)(const problem&, const problem&, const std::vector<double>&,
                                                     const std::vector<double>&, const std::vector<double>&,
                                                     const std::vector<double>&, const la::bounds&,
                                                     const la::bounds&);
template <class T>
law_result twin_law(const check_run& cx, const char* id, const std::string& statement, const std::string& rule,
                    const wants& w, const std::string& what, const std::string& against, twin_of twin,
                    twin_compare compare) {
  law_run L(cx, id, type_name<T>(), "", statement, rule);
  if (!L.selected()) return L.finish();
  bias_twin_cases<T>(
      L, cx, L.case_indices(), w, what, against, [twin](rng&, const problem& P) { return twin(P); },
      [compare](std::size_t, const problem& P, const problem& Q, const auto& a, const auto& la_, const auto& b,
                const auto& lb, const la::bounds& B, const la::bounds& BQ) {
        return compare(P, Q, a, la_, b, lb, B, BQ);
      });
  return L.finish();
}

template <class T>
law_result law_packing(const check_run& cx) {
  namespace law = laws::attend_packing;
  wants w;
  w.bias = true;
  w.no_alibi = true;
  w.several = true;  // items to pack
  // told as packed items where the kernel declares them and P has no bias of its own, else as a bias
  const bool items = has(cx.lib.attend_caps, PV_ATTEND_VARLEN);
  return twin_law<T>(cx, law::id, law::statement(), law::tolerance_rule(), w, "packed call",
                     "the row of the batched call",
                     items ? +[](const problem& P) { return P.bias.empty() ? law::packed_items(P) : law::packed(P); }
                           : law::packed,
                     law::compare);
}

template <class T>
law_result law_self_merge(const check_run& cx) {
  namespace law = laws::attend_self_merge;
  wants w;
  w.bias = true;
  w.no_alibi = true;  // a bias per head
  w.no_sinks = true;  // counted once in a call, twice in two merged
  return twin_law<T>(cx, law::id, law::statement(), law::tolerance_rule(), w, "call with every key twice",
                     "the row of the call (its lse + ln 2)", law::twice, law::compare);
}

template <class T>
law_result law_sink_as_key(const check_run& cx) {
  namespace law = laws::attend_sink_as_key;
  wants w;
  w.bias = true;
  w.no_alibi = true;  // it would add slope (n_k - p) to the extra key
  w.one_sink = true;
  w.asks = PV_ATTEND_SINKS;
  return twin_law<T>(cx, law::id, law::statement(), law::tolerance_rule(), w,
                     "call with the sink as a key of value 0", "the row of the call with the sink", law::sink_as_key,
                     law::compare);
}

template <class T>
law_result law_softcap_saturation(const check_run& cx) {
  namespace law = laws::attend_softcap_saturation;
  wants w;
  w.bias = true;
  w.saturated_cap = true;
  w.asks = PV_ATTEND_SOFTCAP;
  return twin_law<T>(cx, law::id, law::statement(), law::tolerance_rule(), w, "call with the queries doubled",
                     "the row of the call (the cap saturated)", law::doubled, law::compare);
}

template <class T>
void attend_all_for(const check_run& cx, std::vector<law_result>& out) {
  out.push_back(law_attend_reference<T>(cx));
  out.push_back(law_support<T>(cx));
  out.push_back(law_gqa_repeat<T>(cx));
  out.push_back(law_causal_prefix<T>(cx));
  out.push_back(law_decode_rows<T>(cx));
  out.push_back(law_padding<T>(cx));
  out.push_back(law_lse_merge<T>(cx));
  out.push_back(law_attend_convex_hull<T>(cx));
  out.push_back(law_independence<T>(cx));
  out.push_back(law_cache<T>(cx));
  out.push_back(law_layout<T>(cx));
  out.push_back(law_homogeneity<T>(cx));
  out.push_back(law_batch_invariance<T>(cx));
  out.push_back(law_permutation<T>(cx));
  out.push_back(law_packing<T>(cx));
  out.push_back(law_self_merge<T>(cx));
  out.push_back(law_sink_as_key<T>(cx));
  out.push_back(law_softcap_saturation<T>(cx));
}

}  // namespace

std::vector<law_result> attend_laws(const check_run& cx) {
  std::vector<law_result> out;
  attend_all_for<float>(cx, out);
  if (!cx.float_only) attend_all_for<double>(cx, out);
  return out;
}

// the attend laws (laws.h)
const law_group_registrar attend_laws_group(op::attend, 0, [](const check_run& cx, json&, json&) { return attend_laws(cx); });

// the probe of declines.h: one batch item and head, 2 queries, 3 keys,
// d = d_v = 4, dense; no capability (no mask, padding, GQA, softcap, sinks,
// ALiBi or LSE), so that every plugin of version 4 is sent it
const probe_registrar attend_declines_probe(op::attend, [](const check_run&, pv_dtype t) {
  problem P;
  P.n_q = 2, P.n_k = 3, P.d = P.d_v = 4;
  P.allocate();
  for (auto* x : {&P.q, &P.k, &P.v})
    for (std::size_t i = 0; i < x->size(); ++i) (*x)[i] = probe_value(i);
  const layouts L{dense_layout(1, 2, 1, 4), dense_layout(1, 3, 1, 4), dense_layout(1, 3, 1, 4), dense_layout(1, 2, 1, 4)};
  return in_dtype(t, [&](auto zero) { return std::vector<call>{attend_call<decltype(zero)>(P, L)}; });
});

}  // namespace pv::blackbox
