// The attend laws that compare calls of one problem written otherwise, through
// the C interface: attend.batch_invariance, attend.support, attend.lse_merge,
// attend.convex_hull and attend.independence (statement, tolerance and body in
// their headers of src/laws/attend/; what they share: attend_law_kit.h).
#include "blackbox/attend_law_kit.h"
#include "laws/attend/batch_invariance.h"
#include "laws/attend/compare.h"
#include "laws/attend/convex_hull.h"
#include "laws/attend/independence.h"
#include "laws/attend/lse_merge.h"
#include "laws/attend/padding.h"
#include "laws/attend/reference.h"
#include "laws/attend/support.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace pv::blackbox::attend_kit {

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


template law_result law_batch_invariance<float>(const check_run&);
template law_result law_support<float>(const check_run&);
template law_result law_lse_merge<float>(const check_run&);
template law_result law_attend_convex_hull<float>(const check_run&);
template law_result law_independence<float>(const check_run&);
template law_result law_batch_invariance<double>(const check_run&);
template law_result law_support<double>(const check_run&);
template law_result law_lse_merge<double>(const check_run&);
template law_result law_attend_convex_hull<double>(const check_run&);
template law_result law_independence<double>(const check_run&);

}  // namespace pv::blackbox::attend_kit
