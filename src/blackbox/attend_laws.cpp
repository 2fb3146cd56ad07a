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
// attend.softcap_saturation. This file runs them all (attend_all_for) and
// holds those against the exact reference; the others are in
// attend_call_laws.cpp and attend_twin_laws.cpp (attend_law_kit.h).
#include "blackbox/attend_law_kit.h"
#include "blackbox/declines.h"
#include "blackbox/laws.h"
#include "laws/attend/causal_prefix.h"
#include "laws/attend/compare.h"
#include "laws/attend/decode_rows.h"
#include "laws/attend/gqa_repeat.h"
#include "laws/attend/padding.h"
#include "laws/attend/reference.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace pv::blackbox {

namespace attend_kit {  // draw's instances for every file of attend laws (attend_law_kit.h)
template problem draw<float>(const check_run&, rng&, int, std::uint32_t, la::empty_rows, const wants&);
template problem draw<double>(const check_run&, rng&, int, std::uint32_t, la::empty_rows, const wants&);
}  // namespace attend_kit

namespace {

using namespace attend_kit;  // the laws' shared parts, and the laws of attend_call_laws.cpp and attend_twin_laws.cpp

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

