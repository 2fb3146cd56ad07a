// The judge of attend.models (laws/attend/models.h): each preset of the run
// (--attend-preset, or every one under --profile models) becomes one case,
// with the fields the kernel declares; its call runs alone (a case's tensors
// reach a few hundred MB, freed before the next), MPFR computes the exact
// output and the any-order bound of the sampled rows, and every other row
// must be finite.
#include "blackbox/attend_calls.h"
#include "blackbox/law_run.h"
#include "blackbox/laws.h"
#include "laws/attend/fast_bound.h"
#include "laws/attend/gqa_repeat.h"
#include "laws/attend/models.h"
#include "laws/attend/reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace pv::blackbox {
namespace {

namespace la = laws::attend;
namespace lm = laws::attend_models;

/// The presets of a run: --attend-preset's, else every one under --profile
/// models, else none (the law is not run).
std::vector<const lm::preset*> presets_of(const check_run& cx) {
  std::vector<const lm::preset*> out;
  for (const auto& n : cx.attend_presets)
    if (const auto* p = lm::find_preset(n)) out.push_back(p);
  if (out.empty() && cx.attend_presets.empty() && cx.profile == "models")
    for (const auto& p : lm::presets()) out.push_back(&p);
  return out;
}

bool declared(std::uint32_t caps, std::uint32_t bit) { return (caps & bit) != 0; }

/// The time allowed per byte a call moves (its inputs and output), beside
/// sandbox.h's kNsPerMadd per multiply-add: 100 ns, 10 MB/s, for a server
/// that receives, decodes and copies them (an eager kernel's repeat_kv
/// copies K and V h_q / h_kv times) on a shared machine. The limit only tells
/// a hang from a slow call: the Llama 3 decoding step of an eager Python
/// kernel, 67 MB in float32, once took more than the 4.7 s of kNsPerMadd
/// alone while a CI run shared the machine.
constexpr double kNsPerByte = 100;

/// The problem of preset m for a kernel declaring `caps` (models.h: a field
/// only when declared), its inputs drawn from g and rounded as the kernel's
/// arithmetic receives them.
template <class T>
la::problem model_problem(const check_run& cx, rng& g, const lm::preset& m, std::uint32_t caps) {
  la::problem P;
  P.batch = m.batch;
  P.h_q = m.h_q;
  P.h_kv = m.h_kv;  // without GQA the K/V heads are repeated to h_q below
  P.n_q = m.n_q;
  P.n_k = m.n_k;
  P.d = m.d;
  P.d_v = m.d_v;
  P.allocate();
  if (declared(caps, PV_ATTEND_PADDING) && !m.k_len.empty()) P.k_len = m.k_len;
  P.causal = m.causal && declared(caps, PV_ATTEND_CAUSAL);
  // the queries are the last n_q positions of their item's keys (a decoding
  // step or a prefill chunk; bottom-right)
  for (long b = 0; b < P.batch; ++b) P.q_start[std::size_t(b)] = P.k_len[std::size_t(b)] - P.n_q;
  if (declared(caps, PV_ATTEND_WINDOW)) P.left = m.left;
  P.scale = m.scale;
  if (declared(caps, PV_ATTEND_SOFTCAP)) P.softcap = m.softcap;
  if (m.sinks && declared(caps, PV_ATTEND_SINKS))
    for (long h = 0; h < P.h_q; ++h) P.sink.push_back(g.real(-3, 3));
  P.lse = declared(caps, PV_ATTEND_LSE);
  const attend_calls::storage<T> stored(cx);
  static const double mag[] = {1, 4, 16, 64};  // by query head: logits of a few tenths to past a cap of 50
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long h = 0; h < P.h_q; ++h)
        for (long l = 0; l < P.d; ++l) {
          const double s = mag[h % 4];
          P.q[P.qi(b, i, h, l)] = stored(g.real(-s, s));
        }
  for (auto& x : P.k) x = stored(g.real(-1, 1));
  for (auto& x : P.v) x = stored(g.real(-1, 1));
  // a kernel without GQA is given the KV heads repeated to h_q, as its caller
  // repeats them (repeat_kv): copies, not h_q independent heads
  if (!declared(caps, PV_ATTEND_GQA)) P = laws::attend_gqa_repeat::repeated(P);
  // the cache slots past an item's length hold NaN: memory that must not be read
  for (long b = 0; b < P.batch; ++b)
    for (long j = P.k_len[std::size_t(b)]; j < P.n_k; ++j)
      for (long g_kv = 0; g_kv < P.h_kv; ++g_kv) {
        for (long l = 0; l < P.d; ++l) P.k[P.ki(b, j, g_kv, l)] = std::numeric_limits<double>::quiet_NaN();
        for (long c = 0; c < P.d_v; ++c) P.v[P.vi(b, j, g_kv, c)] = std::numeric_limits<double>::quiet_NaN();
      }
  return P;
}

/// The worst sampled entry of out (and lse) against E within B.
laws::attend_compare::worst judge_rows(const la::problem& P, const la::row_set& rows, const std::vector<double>& out,
                                       const std::vector<double>& lse, const la::exact& E, const la::bounds& B) {
  laws::attend_compare::worst w;
  for (long b = 0; b < P.batch; ++b)
    for (long h = 0; h < P.h_q; ++h)
      for (long i = 0; i < P.n_q; ++i) {
        const std::size_t li = P.li(b, h, i);
        if (!rows[li]) continue;
        for (long c = 0; c < P.d_v; ++c) {
          const std::size_t e = P.oi(b, i, h, c);
          laws::attend_compare::raise(w, e, false, out[e], E.out[e], B.out[e]);
        }
        if (P.lse) laws::attend_compare::raise(w, li, true, lse[li], E.lse[li], B.lse[li]);
      }
  return w;
}

/// The rows MPFR judges (models.h): (0, 0, 0), (0, 0, 1), the last row of the
/// last item and head, and three drawn.
la::row_set sampled_rows(const la::problem& P, rng& g) {
  la::row_set rows(P.lse_size(), 0);
  rows[P.li(0, 0, 0)] = 1;
  rows[P.li(0, std::min(1L, P.h_q - 1), 0)] = 1;
  rows[P.li(P.batch - 1, P.h_q - 1, P.n_q - 1)] = 1;
  for (int t = 0; t < 3; ++t) rows[P.li(g.range(0, P.batch - 1), g.range(0, P.h_q - 1), g.range(0, P.n_q - 1))] = 1;
  return rows;
}

std::string problem_text(const la::problem& P) {
  std::string s = "batch " + std::to_string(P.batch) + ", h_q " + std::to_string(P.h_q) + ", h_kv " +
                  std::to_string(P.h_kv) + ", n_q " + std::to_string(P.n_q) + ", n_k " + std::to_string(P.n_k) +
                  ", d " + std::to_string(P.d) + ", d_v " + std::to_string(P.d_v) + ", q_start " +
                  attend_calls::list_text(P.q_start) + ", k_len " + attend_calls::list_text(P.k_len);
  if (P.causal) s += ", causal";
  if (P.left >= 0) s += ", window left " + std::to_string(P.left);
  if (P.scale != 0) s += ", scale " + to_decimal(P.scale);
  if (P.softcap > 0) s += ", softcap " + to_decimal(P.softcap);
  if (!P.sink.empty()) s += ", a sink per head";
  if (P.lse) s += ", lse";
  return s;
}

template <class T>
law_result law_attend_models(const check_run& cx0) {
  namespace law = laws::attend_models;
  const auto ps = presets_of(cx0);
  check_run cx = cx0;  // one case per preset
  cx.cases = int(ps.size());
  cx.min_cases = std::min(cx0.min_cases, int(ps.size()));
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto conv = attend_calls::convention(cx);
  const auto U = attend_calls::units<T>(cx);
  json rows_json = json::array();
  std::vector<std::string> not_bounded;
  for (int k : L.case_indices()) {
    if (k < 0 || std::size_t(k) >= ps.size()) continue;
    const lm::preset& m = *ps[std::size_t(k)];
    auto g = L.rng_for(k);
    const la::problem P = model_problem<T>(cx, g, m, cx.lib.attend_caps);
    const attend_calls::layouts Ls = attend_calls::draw_layouts(g, P);
    const la::row_set rows = sampled_rows(P, g);
    const std::size_t at = L.add(attend_calls::attend_call<T>(P, Ls));
    // a case moves up to a few hundred MB, which a server (Python,
    // --impl-cmd) copies and decodes: its time limit grows by kNsPerByte per
    // byte as well as by kNsPerMadd per multiply-add (call_timeout_ms)
    double bytes = double(L.calls()[at].out_bytes());
    for (const auto& b : L.calls()[at].in) bytes += double(b.size());
    cx.ro.timeout_ms = cx0.ro.timeout_ms + int(bytes * kNsPerByte * 1e-6);
    L.run();
    for (auto& b : L.calls()[at].in) std::vector<unsigned char>().swap(b);  // the inputs are sent
    const describer desc = [&] {
      return "preset " + std::string(m.name) + " (" + m.about + "): " + problem_text(P) + "\nstrides: q " +
             attend_calls::strides_text(Ls.q) + ", k " + attend_calls::strides_text(Ls.k) + ", v " +
             attend_calls::strides_text(Ls.v) + ", out " + attend_calls::strides_text(Ls.out) +
             "\ninputs: drawn from the seed (the replay command draws them again)";
    };
    if (!L.calls_ok(k, {at}, desc)) {
      if (L.failed()) break;
      continue;
    }
    std::vector<double> out, lse;
    attend_calls::read_back<T>(P, Ls, L.results()[at], out, lse);
    // every row finite (NaN only as the declared empty row), sampled or not
    std::size_t bad = out.size();
    for (std::size_t e = 0; e < out.size() && bad == out.size(); ++e) {
      const std::size_t row = e / std::size_t(P.d_v * P.h_q);  // out[b][i][h][c]: (b, i)
      const long i = long(row % std::size_t(P.n_q)), b = long(row / std::size_t(P.n_q));
      if (!std::isfinite(out[e]) && !(conv == la::empty_rows::nan && la::empty_row(P, b, i))) bad = e;
    }
    if (bad < out.size()) {
      L.fail(k, attend_calls::entry_of(P, bad, false) + " of preset " + m.name + " is " + to_decimal(out[bad]) +
                    ": every value it sees is finite",
             desc);
      break;
    }
    if (P.lse && lse.size() != P.lse_size()) {
      L.fail(k, "the call asked for the log-sum-exp returned none", desc);
      break;
    }
    const auto [E, B] = la::reference_and_bound(P, conv, U, {}, &rows);
    const auto w = judge_rows(P, rows, out, lse, E, B);
    // a sampled row whose bound is at least the largest |v| it sees in a
    // column admits any output in the values' range: not bounded there
    long judged = 0, unbounded = 0;
    for (long b = 0; b < P.batch; ++b)
      for (long h = 0; h < P.h_q; ++h)
        for (long i = 0; i < P.n_q; ++i) {
          const std::size_t li = P.li(b, h, i);
          if (!rows[li]) continue;
          ++judged;
          std::vector<double> vmax(std::size_t(P.d_v), 0.0);
          const long g_kv = la::kv_head(P, h);
          for (long j = 0; j < P.n_k; ++j)
            if (la::visible(P, b, i, j))
              for (long c = 0; c < P.d_v; ++c)
                vmax[std::size_t(c)] = std::max(vmax[std::size_t(c)], std::abs(P.v[P.vi(b, j, g_kv, c)]));
          bool row_bounded = true;
          for (long c = 0; c < P.d_v; ++c)
            if (!E.empty[li] && vmax[std::size_t(c)] > 0 && !(B.out[P.oi(b, i, h, c)] < hp(vmax[std::size_t(c)])))
              row_bounded = false;
          unbounded += row_bounded ? 0 : 1;
        }
    const bool bounded = unbounded == 0;
    json row = json::object();
    row.set("case", json::integer(k));
    row.set("preset", json::string(m.name));
    row.set("problem", json::string(problem_text(P)));
    row.set("rows_judged", json::integer(judged));
    row.set("rows_not_bounded", json::integer(unbounded));
    row.set("rows", json::integer(long(P.lse_size())));
    row.set("bounded", json::boolean(bounded));
    row.set("worst_ratio",
            json::number(to_decimal(w.found && w.bound > 0 ? convert<double>(w.ratio) : w.found ? 1e300 : 0.0)));
    rows_json.push(row);
    if (!bounded)
      not_bounded.push_back(std::string(m.name) + " (" + std::to_string(unbounded) + " of " + std::to_string(judged) +
                            " sampled rows)");
    if (!attend_calls::record(L, k, P, w, "exact", desc)) {
      std::string dg;
      for (const auto& v : laws::attend_reference::variants(P)) {
        const auto [Ev, Bv] = la::reference_and_bound(P, conv, U, v.w, &rows);
        if (judge_rows(P, rows, out, lse, Ev, Bv).within()) {
          dg = v.name;
          break;
        }
      }
      if (!dg.empty()) L.diagnose(dg);
      break;
    }
    L.case_done();
  }
  L.result_ref().extra.set("presets", rows_json);
  law_result res = L.finish();
  if (!not_bounded.empty()) {
    json nb = json::array();
    for (const auto& n : not_bounded) nb.push(json::string(n));
    res.extra.set("not_bounded_at", nb);
  }
  if (!not_bounded.empty() && res.verdict == verdict::passed) {  // a silent pass there: say what was not checked
    std::string list;
    for (const auto& n : not_bounded) list += (list.empty() ? "" : ", ") + n;
    res.finding = "not bounded here: " + list + " (a row's tolerance is at least the largest |v| it sees in a "
                  "column, so only finiteness was checked on those rows)";
  }
  return res;
}

}  // namespace

/// attend.models of each dtype (float32, float64), or nothing when the run
/// has no preset.
std::vector<law_result> attend_model_laws(const check_run& cx) {
  std::vector<law_result> out;
  if (presets_of(cx).empty()) return out;
  out.push_back(law_attend_models<float>(cx));
  if (!cx.float_only) out.push_back(law_attend_models<double>(cx));
  return out;
}

// after the other attend laws (laws.h)
const law_group_registrar attend_models_group(op::attend, 1,
                                              [](const check_run& cx, json&, json&) { return attend_model_laws(cx); });

}  // namespace pv::blackbox
