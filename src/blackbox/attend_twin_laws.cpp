// The attend laws of the cache, the layout and the scalings, and those that
// compare a call with a twin call written with the explicit bias, through the
// C interface: attend.cache, attend.layout, attend.homogeneity,
// attend.permutation, attend.packing, attend.self_merge, attend.sink_as_key and
// attend.softcap_saturation (statement, tolerance and body in their headers of
// src/laws/attend/; what they share: attend_law_kit.h).
#include "blackbox/attend_law_kit.h"
#include "laws/attend/cache.h"
#include "laws/attend/compare.h"
#include "laws/attend/homogeneity.h"
#include "laws/attend/layout.h"
#include "laws/attend/packing.h"
#include "laws/attend/permutation.h"
#include "laws/attend/reference.h"
#include "laws/attend/self_merge.h"
#include "laws/attend/sink_as_key.h"
#include "laws/attend/softcap_saturation.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace pv::blackbox::attend_kit {

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


template law_result law_cache<float>(const check_run&);
template law_result law_layout<float>(const check_run&);
template law_result law_homogeneity<float>(const check_run&);
template law_result law_permutation<float>(const check_run&);
template law_result law_packing<float>(const check_run&);
template law_result law_self_merge<float>(const check_run&);
template law_result law_sink_as_key<float>(const check_run&);
template law_result law_softcap_saturation<float>(const check_run&);
template law_result law_cache<double>(const check_run&);
template law_result law_layout<double>(const check_run&);
template law_result law_homogeneity<double>(const check_run&);
template law_result law_permutation<double>(const check_run&);
template law_result law_packing<double>(const check_run&);
template law_result law_self_merge<double>(const check_run&);
template law_result law_sink_as_key<double>(const check_run&);
template law_result law_softcap_saturation<double>(const check_run&);

}  // namespace pv::blackbox::attend_kit
