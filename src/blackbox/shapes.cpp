#include "blackbox/shapes.h"

#include "blackbox/key_weights.h"
#include "blackbox/laws.h"
#include "blackbox/normaliser.h"
#include "blackbox/plain_in_class.h"
#include "blackbox/structured_inputs.h"
#include "laws/attention/any_order_bound.h"
#include "laws/attention/shapes.h"
#include "core/text.h"
#include "reference/fast/fast.h"
#include "reference/mp_attention.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace pv::blackbox {

shape parse_shape(const std::string& spec) {
  shape s;
  std::size_t* f[4] = {&s.n_q, &s.n_k, &s.d, &s.d_v};
  std::size_t pos = 0;
  bool ok = true;
  for (int i = 0; i < 4 && ok; ++i) {
    const std::size_t end = i < 3 ? spec.find('x', pos) : spec.size();
    const std::string part = end == std::string::npos ? "" : spec.substr(pos, end - pos);
    ok = !part.empty() && part.size() <= 7 && part.find_first_not_of("0123456789") == std::string::npos;
    if (ok) *f[i] = std::stoul(part);
    ok = ok && *f[i] >= 1 && *f[i] <= (1u << 20);
    pos = end == std::string::npos ? spec.size() : end + 1;
  }
  if (!ok)
    throw std::invalid_argument("--shape: '" + text::visible(spec) +
                                "' is not NQxNKxDxDV (four whole numbers from 1 to 2^20, e.g. 1x4096x128x128)");
  // each size alone is bounded; their products too (the work of a call and
  // the buffers posverify fills and the kernel fills)
  const double work = double(s.n_q) * double(s.n_k) * double(s.d + s.d_v);
  const double values = double(s.n_q) * double(s.d + s.d_v) + double(s.n_k) * double(s.d + s.d_v);
  if (work > max_shape_work || values > max_shape_values) {
    char what[160];
    std::snprintf(what, sizeof what,
                  work > max_shape_work ? "asks for %.3g multiply-adds n_q n_k (d + d_v), more than the 2^35 = %.3g"
                                        : "asks for %.3g values in q, k, v and the output, more than the 2^27 = %.3g",
                  work > max_shape_work ? work : values, work > max_shape_work ? max_shape_work : max_shape_values);
    throw std::invalid_argument("--shape: '" + text::visible(spec) + "' " + what + " accepted" +
                                (work > max_shape_work
                                     ? " (the FLUX.1 head of --profile models, 4608x4608x128x128, is 5.4e+09)"
                                     : " (1 GiB in float64)"));
  }
  return s;
}

std::string shape_text(const shape& s) {
  return std::to_string(s.n_q) + "x" + std::to_string(s.n_k) + "x" + std::to_string(s.d) + "x" +
         std::to_string(s.d_v);
}

void check_profile(const std::string& p) {
  if (p != "quick" && p != "models")
    throw std::invalid_argument("--profile: '" + text::visible(p) + "' is not a profile (quick, models)");
}

namespace {

struct shape_case {
  shape s;
  structure kind;
};

/// The cases of attention.shapes: the profile's (see shapes.h) and the user's.
std::vector<shape_case> shape_cases(const check_run& cx) {
  static const std::size_t quick[][4] = {
      {1, 1, 32, 32},    {4, 2, 64, 32},    {16, 15, 80, 48},  {17, 16, 96, 96},   {33, 17, 128, 64},
      {1, 31, 256, 48},  {4, 32, 32, 32},   {16, 33, 64, 32},  {17, 63, 80, 48},   {33, 64, 96, 96},
      {1, 65, 128, 64},  {4, 127, 256, 48}, {16, 128, 32, 32}, {17, 129, 64, 32},  {16, 255, 80, 48},
      {1, 256, 96, 96},  {17, 257, 128, 64},
      // n_q past a block of 64 query rows by one: a prefill grid of floor(n_q / 64) blocks
      {65, 64, 64, 64},  {129, 65, 96, 48},  {257, 127, 32, 32}};
  std::vector<shape_case> out;
  const auto& mixed = mixed_structures();
  auto add = [&](shape s) { out.push_back({s, mixed[out.size() % mixed.size()]}); };
  if (cx.shapes.empty() || cx.profile_given) {
    for (const auto& q : quick) add({q[0], q[1], q[2], q[3]});
    // a long row of all-positive values: a 16-bit accumulator of p v stalls
    out.push_back({{1, 4096, 128, 128}, structure::identical_keys_positive});
    out.push_back({{4, 4096, 64, 64}, structure::positive_values});
  }
  if (cx.profile == "models" && (cx.shapes.empty() || cx.profile_given)) {
    out.push_back({{1, 4096, 128, 128}, structure::random});  // one decoding step
    out.push_back({{256, 2048, 96, 80}, structure::padding});
    out.push_back({{4608, 4608, 128, 128}, structure::flux_rope});  // one FLUX.1 head
  }
  for (const auto& spec : cx.shapes) add(parse_shape(spec));
  return out;
}

std::vector<double> as_doubles(const auto& m) { return std::vector<double>(m.a.begin(), m.a.end()); }

template <class T>
struct judged_case {
  shape_case sc;
  att_inputs<T> in;
  double seconds = 0;
  long rss_kib = 0, limit_ms = 0;
  bool own_child = false;  ///< ran in a child of its own
};

/// Shapes of at least this many multiply-adds run in a child of their own
/// (its peak memory is theirs); the smaller ones share one.
constexpr double kOwnChildWork = double(1 << 24);

/// Runs the calls added so far (cases [first unrun, end) of cs) in one child
/// and records each case's time and the child's peak memory.
template <class C>
void run_shapes(law_run& L, std::vector<C>& cs, std::size_t end) {
  const std::size_t begin = L.results().size();
  if (begin >= L.calls().size()) return;
  L.run();
  for (std::size_t i = begin; i < end && i < L.results().size(); ++i) {
    cs[i].seconds = L.results()[i].seconds;
    cs[i].rss_kib = sandbox::stats().last_peak_rss_kib;
  }
}

template <class T>
std::string describe_case(const judged_case<T>& c, std::uint64_t seed) {
  const auto& s = c.sc.s;
  std::string d = "shape " + shape_text(s) + " (n_q x n_k x d x d_v), inputs: " + to_string(c.sc.kind);
  if (double(s.n_q + s.n_k) * double(s.d + s.d_v) > 20000)
    return d + "\n(inputs too large to print: the replay command regenerates them from seed " +
           std::to_string(seed) + ")";
  return d + "\nq = " + to_string(c.in.q) + "\nk = " + to_string(c.in.k) + "\nv = " + to_string(c.in.v);
}

/// The accuracy classes coarser than the run's whose plain implementation
/// (plain_in_class.h) errs at least half as much as the kernel on the
/// failing case (less u max|v|), by the largest error over its entries: "the error is
/// consistent with ..." (the classes go to `classes`: advice once the laws
/// pass with them and bound this shape, run.cpp). When none is, the keys'
/// weights read at this shape (key_weights.h, output row `row`) name what the
/// kernel does with them: keys dropped, blocks of keys scaled, a normaliser.
template <class T>
std::string diagnose_shape(const check_run& cx, const att_inputs<T>& in, const matrix<T>& out,
                           const attention_reference& ref, std::size_t row, std::vector<std::string>& classes) {
  auto largest_error = [&](const matrix<T>& m) {
    double e = 0;
    for (std::size_t x = 0; x < m.a.size(); ++x)
      e = std::max(e, std::abs(double(m.a[x]) - ref.hi[x] - ref.lo[x]));
    return e;
  };
  namespace reference_law = laws::attention_reference;
  const double err = largest_error(out);
  double vmax = 0;
  for (const T& x : in.v.a) vmax = std::max(vmax, std::abs(double(x)));
  // the emulated plain implementation rounds every operation explicitly
  // (about 10 ns each): past 2^27 multiply-adds (the FLUX.1 head) no class is tried
  const double work = double(in.q.rows) * double(in.k.rows) * double(in.q.cols + in.v.cols);
  std::string consistent;
  for (const char* name : kAccuracyClasses) {
    const accuracy_class a = parse_accuracy(name);
    if (!std::is_same_v<T, float> || !coarser(a, cx.accuracy) || work > 0x1p27)
      continue;
    const double perr = largest_error(plain_in_class(a, in.q, in.k, in.v));
    // the reference law's factor c; one unit of a.u max|v| for slack (its
    // floor of 8 made bfloat16 storage "consistent" with any error below
    // 3 % of max|v| on the long rows)
    if (!(err <= reference_law::flash_c * perr + a.u * vmax)) continue;
    consistent += std::string(consistent.empty() ? "the error is consistent with " : " and with ") + cause_of(a) +
                  " (posverify's plain " + name + " implementation errs by " + to_decimal(perr) + " here, the kernel by " +
                  to_decimal(err) + ")";
    classes.push_back(name);
  }
  if (!consistent.empty()) return consistent;
  const std::string none = "no accuracy class explains the error (largest " + to_decimal(err) + ")";
  const shape s{in.q.rows, in.k.rows, in.q.cols, in.v.cols};
  std::string error;
  const auto readings = read_key_weights<T>(cx, s, row, error);
  if (readings.empty()) return none + "; " + error;
  const double tol = key_weight_tolerance(cx, double(unit_roundoff<T>()), readings.back().n_k);
  // one factor on every weight: the normaliser read with equal scores tests a 16-bit sum of the exponentials
  const std::string normaliser = key_weights_scaled(readings, tol) ? sixteen_bit_normaliser<T>(cx, s) : "";
  const std::string f = key_weight_finding(readings, tol, normaliser);
  if (!f.empty()) return f + "; " + none;
  std::string at;
  for (const auto& r : readings)
    if (!r.rising) at += (at.empty() ? "" : " and ") + std::to_string(r.n_k);
  const std::string right =
      "the keys' weights read with v = I are softmax's (n_k = " + at + ", equal and rising scores)";
  // right within the class's tolerance here, but a 16-bit sum of the exponentials shows on longer rows
  if (const std::string n = sixteen_bit_normaliser<T>(cx, s); !n.empty()) return right + "; but " + n + "; " + none;
  return right + ": the error lies in the sum over the values or in these inputs' scores; " + none;
}

template <class T>
law_result law_shapes(const check_run& cx0) {
  namespace law = laws::attention_shapes;
  const auto cases = shape_cases(cx0);
  check_run cx = cx0;  // one case per shape
  cx.ro.keep_child = false;  // a case's peak memory is its child's (run_shapes)
  cx.cases = int(cases.size());
  cx.min_cases = std::min(cx0.min_cases, int(cases.size()));
  law_run L(cx, law::id, type_name<T>(), "", law::statement(cx.profile), law::tolerance_rule());
  if (!L.selected()) return L.finish();
  const value_range vr = range_of<T>(cx);
  const attention_units au = attention_law_units<T>(cx);
  const double u = convert<double>(au.arith), us = convert<double>(au.storage);
  const double mu = convert<double>(au.mu);
  std::vector<judged_case<T>> cs;
  const auto ks = L.case_indices();
  for (int k : ks) {
    if (k < 0 || std::size_t(k) >= cases.size()) continue;
    auto g = L.rng_for(k);
    auto& c = cs.emplace_back();
    c.sc = cases[std::size_t(k)];
    const auto& s = c.sc.s;
    c.in = structured_attention<T>(g, s.n_q, s.n_k, s.d, s.d_v, c.sc.kind, vr);
    call cl = attention_call(c.in.q, c.in.k, c.in.v);
    c.limit_ms = call_timeout_ms(cl, cx.ro);
    c.own_child = cl.work() >= kOwnChildWork;
    if (c.own_child) run_shapes(L, cs, cs.size() - 1);  // the smaller ones before it
    L.add(std::move(cl));
    if (c.own_child) run_shapes(L, cs, cs.size());
  }
  run_shapes(L, cs, cs.size());
  std::vector<int> run_ks;
  for (int k : ks)
    if (k >= 0 && std::size_t(k) < cases.size()) run_ks.push_back(k);
  json rows = json::array();
  std::vector<std::string> not_bounded;  // the shapes whose bound admits any output in the values' range
  tier_agreement total;
  L.each_case(run_ks, 1, [&](std::size_t i) { return describe_case(cs[i], cx.seed); },
              [&](std::size_t i, const describer& desc) {
    auto& c = cs[i];
    const auto& s = c.sc.s;
    const auto q = as_doubles(c.in.q), kk = as_doubles(c.in.k), v = as_doubles(c.in.v);
    const auto ref = reference_attention(q.data(), kk.data(), v.data(), s.n_q, s.n_k, s.d, s.d_v);
    const auto B = laws::attention_bound::any_order_binary64(q.data(), kk.data(), v.data(), s.n_q, s.n_k, s.d, s.d_v,
                                                             u, mu, vr.underflow, us, convert<double>(au.pv));
    const auto out = from_bytes<T>(L.results()[i].out, s.n_q, s.d_v);
    // MPFR judges the first and last rows and one drawn row of the reference
    auto g = L.rng_for(run_ks[i] + 1000000);
    std::vector<std::size_t> sample = {0, s.n_q - 1, g.in(0, s.n_q - 1)};
    std::sort(sample.begin(), sample.end());
    sample.erase(std::unique(sample.begin(), sample.end()), sample.end());
    const auto agree = mpfr_sample(ref, q.data(), kk.data(), v.data(), s.n_q, s.n_k, s.d, s.d_v, sample);
    total.entries += agree.entries;
    if (agree.worst_ratio >= total.worst_ratio) {
      total.worst_ratio = agree.worst_ratio;
      total.worst_where = "case " + std::to_string(run_ks[i]) + ", " + agree.worst_where;
    }
    const auto o = law::compare(out.a, ref.hi, ref.lo, ref.bound, B);
    // a tolerance of at least max_j |v_jc| admits an output of 0 (every key
    // lost): the bound has no teeth there, and the row says so
    std::vector<double> vmax(s.d_v, 0.0);
    for (std::size_t j = 0; j < s.n_k; ++j)
      for (std::size_t col = 0; col < s.d_v; ++col) vmax[col] = std::max(vmax[col], std::abs(v[j * s.d_v + col]));
    bool bounded = true;
    for (std::size_t e = 0; e < B.size() && bounded; ++e)
      if (vmax[e % s.d_v] > 0 && !(B[e] + ref.bound[e] < vmax[e % s.d_v])) bounded = false;
    if (!bounded) not_bounded.push_back(shape_text(s) + " (" + to_string(c.sc.kind) + ")");
    json row = json::object();
    row.set("bounded", json::boolean(bounded));
    if (!bounded) row.set("note", json::string("not bounded at this shape: the tolerance is at least max_j |v_jc|"));
    row.set("case", json::integer(run_ks[i]));
    row.set("shape", json::string(shape_text(s)));
    row.set("inputs", json::string(to_string(c.sc.kind)));
    row.set("reference", json::string(ref.mpfr ? "mpfr" : "fast"));
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.3f", c.seconds);
    row.set("seconds", json::number(secs));
    row.set("own_child", json::boolean(c.own_child));
    row.set("time_limit_ms", json::integer(c.limit_ms));
    row.set("peak_rss_kib", json::integer(c.rss_kib));
    row.set("worst_ratio", json::number(to_decimal(std::isfinite(o.ratio) ? o.ratio : 1e300)));
    row.set("mpfr_sample_entries", json::integer(agree.entries));
    row.set("mpfr_sample_worst_ratio", json::number(to_decimal(agree.worst_ratio)));
    rows.push(row);
    if (agree.worst_ratio > 1) {
      L.fail(run_ks[i],
             "the fast reference and MPFR disagree beyond their bounds at " + agree.worst_where + " (ratio " +
                 to_decimal(agree.worst_ratio) + "): a fault of posverify's reference, please report it",
             desc);
      return false;
    }
    if (!o.found) return true;  // no output entries (d_v = 0 cannot happen: d_v >= 1)
    const std::size_t r = o.entry / s.d_v, col = o.entry % s.d_v;
    const bool ok = L.within(run_ks[i], o.diff, o.bound,
                             "shape " + shape_text(s) + " (" + to_string(c.sc.kind) + "), entry (" + std::to_string(r) +
                                 ", " + std::to_string(col) + ") (got " + to_decimal(out.a[o.entry]) + ", reference " +
                                 ref::to_decimal(o.ref_value, 20) + ")",
                             desc);
    if (!ok) L.diagnose(diagnose_shape(cx, c.in, out, ref, r, L.result_ref().advise));
    return ok;
  });
  L.result_ref().extra.set("shapes", rows);
  json ag = json::object();
  ag.set("entries", json::integer(total.entries));
  ag.set("worst_ratio", json::number(to_decimal(total.worst_ratio)));
  ag.set("where", json::string(total.worst_where));
  L.result_ref().extra.set("fast_vs_mpfr", ag);
  law_result res = L.finish();
  if (!not_bounded.empty()) {
    json nb = json::array();
    std::string list;
    for (const auto& w : not_bounded) {
      nb.push(json::string(w));
      list += (list.empty() ? "" : "; ") + w;
    }
    res.extra.set("not_bounded_at", nb);
    if (res.verdict == verdict::passed)  // a pass there would be silent: say what was not checked
      res.finding = "not bounded at this shape: " + list + " (the tolerance is at least the largest |v| of a "
                    "column, so only finiteness was checked there)";
  }
  return res;  // the replays carry --profile and --shape (law_run::replay_of)
}

}  // namespace

attention_reference reference_attention(const double* q, const double* k, const double* v, std::size_t n_q,
                                        std::size_t n_k, std::size_t d, std::size_t d_v) {
  attention_reference r;
  try {
    const auto f = fast::attention(q, k, v, n_q, n_k, d, d_v);
    r.hi.resize(f.value.size());
    r.lo.resize(f.value.size());
    for (std::size_t e = 0; e < f.value.size(); ++e) {
      r.hi[e] = f.value[e].hi;
      r.lo[e] = f.value[e].lo;
    }
    r.bound = f.bound;
    return r;
  } catch (const std::domain_error&) {
    // scores beyond the fast tier's range: MPFR, with the a-priori bound of
    // its own arithmetic (u = 2^-p, no underflow in MPFR's exponent range)
  }
  r.mpfr = true;
  r.hi.resize(n_q * d_v);
  r.lo.resize(n_q * d_v);
  for (std::size_t i = 0; i < n_q; ++i) {
    const std::vector<hp> out = ref::attention_row(q + i * d, k, v, n_k, d, d_v);
    for (std::size_t c = 0; c < d_v; ++c) {
      const std::size_t e = i * d_v + c;
      r.hi[e] = convert<double>(out[c]);
      r.lo[e] = convert<double>(hp(out[c] - convert<hp>(r.hi[e])));
    }
  }
  const double up = std::ldexp(1.0, -int(ref::precision_bits()));
  r.bound = laws::attention_bound::any_order_binary64(q, k, v, n_q, n_k, d, d_v, up, 0, 0);
  // the lo word rounds hi + lo's remainder once more
  for (std::size_t e = 0; e < r.bound.size(); ++e) r.bound[e] += 0x1p-104 * std::abs(r.hi[e]);
  return r;
}

tier_agreement mpfr_sample(const attention_reference& ref, const double* q, const double* k, const double* v,
                           std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t d_v,
                           const std::vector<std::size_t>& rows) {
  tier_agreement t;
  if (ref.mpfr) return t;  // MPFR is the reference already
  const double up = std::ldexp(1.0, -int(ref::precision_bits()));
  for (std::size_t i : rows) {
    if (i >= n_q) continue;
    const std::vector<hp> mp = ref::attention_row(q + i * d, k, v, n_k, d, d_v);  // attention<hp>'s values
    const auto bmp = laws::attention_bound::any_order_binary64(q + i * d, k, v, 1, n_k, d, d_v, up, 0, 0);
    for (std::size_t c = 0; c < d_v; ++c) {
      const std::size_t e = i * d_v + c;
      const hp diff = abs(convert<hp>(ref.hi[e]) + convert<hp>(ref.lo[e]) - mp[c]);
      const double tol = ref.bound[e] + bmp[c];
      // a NaN in the reference or its bound disagrees with MPFR (a NaN ratio
      // would lose every comparison and read as agreement)
      const bool nan = std::isnan(ref.hi[e]) || std::isnan(ref.lo[e]) || std::isnan(tol);
      const double r = nan ? INFINITY
                           : tol > 0 ? convert<double>(hp(diff / convert<hp>(tol))) : (diff > 0 ? INFINITY : 0);
      ++t.entries;
      if (r >= t.worst_ratio) {
        t.worst_ratio = r;
        t.worst_where = "entry (" + std::to_string(i) + ", " + std::to_string(c) + ")";
      }
    }
  }
  return t;
}

std::vector<law_result> shape_laws(const check_run& cx) {
  std::vector<law_result> out;
  if (!cx.lib.has(op::attention)) return out;
  out.push_back(law_shapes<float>(cx));
  if (!cx.float_only) out.push_back(law_shapes<double>(cx));
  return out;
}

// attention.shapes, after the other attention laws (laws.h)
const law_group_registrar shapes_group(op::attention, 1, [](const check_run& cx, json&, json&) { return shape_laws(cx); });

}  // namespace pv::blackbox
