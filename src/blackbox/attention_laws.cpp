// The attention laws of `posverify check`, through the C interface: how each
// draws its cases, calls the kernel and reports a compared entry. The laws
// themselves -- statement, tolerance, body -- are in laws/attention/: the
// any-order bound B every comparison of two outputs uses (any_order_bound.h),
// attention.reference (reference.h, FlashAttention's rule in units of B),
// attention.permutation_equivariance, attention.key_value_permutation,
// attention.convex_hull and attention.score_shift.
#include "blackbox/declines.h"
#include "blackbox/law_run.h"
#include "blackbox/laws.h"
#include "blackbox/normaliser.h"
#include "blackbox/plain_in_class.h"
#include "laws/attention/any_order_bound.h"
#include "laws/attention/convex_hull.h"
#include "laws/attention/key_value_permutation.h"
#include "laws/attention/permutation_equivariance.h"
#include "laws/attention/reference.h"
#include "laws/attention/score_shift.h"
#include "numerics/attention.h"
#include "numerics/error_bounds.h"
#include "numerics/permutation.h"

#include <algorithm>
#include <cmath>  // std::exp, std::sqrt of the emulated plain implementation

namespace pv::blackbox {
namespace {

namespace reference_law = laws::attention_reference;

template <class T>
struct att_case {
  matrix<T> q, k, v;
};

template <class T>
att_case<T> gen_case(rng& g, int k) {
  att_case<T> c;
  const std::size_t nq = g.range(1, 8), nk = g.range(1, 12), d = g.range(1, 16),
                    dv = g.range(1, 8);
  static const double scales[] = {1, 3, 0.3, 40};
  const double s = scales[k % 4];
  c.q = random_matrix<T>(g, nq, d, s);
  c.k = random_matrix<T>(g, nk, d, s);
  c.v = random_matrix<T>(g, nk, dv, 4 * std::pow(10.0, g.real(-1, 1)));
  return c;
}

template <class T>
std::string describe(const att_case<T>& c) {
  return "n_q = " + std::to_string(c.q.rows) + ", n_k = " + std::to_string(c.k.rows) +
         ", d = " + std::to_string(c.q.cols) + ", d_v = " + std::to_string(c.v.cols) +
         "\nq = " + to_string(c.q) + "\nk = " + to_string(c.k) + "\nv = " + to_string(c.v);
}

/// A case of a permutation law: the inputs and a permutation p of the query
/// rows or of the key/value rows.
template <class T>
struct perm_case {
  att_case<T> c;
  std::vector<std::size_t> p;
};

template <class T>
std::string describe(const perm_case<T>& pc) {
  std::string s = describe(pc.c) + "\nperm = [";
  for (std::size_t j = 0; j < pc.p.size(); ++j) s += (j ? ", " : "") + std::to_string(pc.p[j]);
  return s + "]";
}

template <class T>
call make_call(const matrix<T>& q, const matrix<T>& k, const matrix<T>& v) {
  return attention_call(q, k, v);
}

/// Generates the cases of a permutation law, permuting the query rows
/// (keys = false) or the key and value rows together (keys = true), and adds
/// two calls per case: A(q, k, v), then the permuted one.
template <class T>
std::vector<perm_case<T>> add_perm_cases(law_run& L, const std::vector<int>& ks, bool keys) {
  std::vector<perm_case<T>> cs;
  for (int k : ks) {
    auto g = L.rng_for(k);
    auto& pc = cs.emplace_back();
    pc.c = gen_case<T>(g, k);
    const auto& c = pc.c;
    pc.p = keys ? laws::key_value_permutation::draw_order(g, c.k.rows)
                : laws::permutation_equivariance::draw_order(g, c.q.rows);
    L.add(make_call(c.q, c.k, c.v));
    if (keys) L.add(make_call(c.q, permute_rows(c.k, pc.p), permute_rows(c.v, pc.p)));
    else L.add(make_call(permute_rows(c.q, pc.p), c.k, c.v));
  }
  return cs;
}

template <class T>
matrix<T> out_of(const law_run& L, std::size_t i, std::size_t rows, std::size_t cols) {
  return from_bytes<T>(L.results()[i].out, rows, cols);
}

/// The any-order bound B of every output entry (laws/attention/any_order_bound.h).
/// Not attention_forward_bound (pv::attention's own sums): a user's kernel may sum in any order.
/// With a declared accuracy class (--accuracy): a storage class stores q, k, v
/// and the output at its u and sums at float32's (attention_law_units); one
/// that accumulates in its format counts every rounding at its u, and mu is
/// its smallest normal.
template <class T>
matrix<hp> apriori_bound(const check_run& cx, const matrix<T>& Q, const matrix<T>& K, const matrix<T>& V) {
  const attention_units au = attention_law_units<T>(cx);
  return laws::attention_bound::any_order(Q, K, V, au.arith, au.mu, au.storage, au.pv, au.pv_eta);
}

std::string entry(std::size_t i, std::size_t c) {
  return "output entry (" + std::to_string(i) + ", " + std::to_string(c) + ")";
}

template <class T>
matrix<T> plain_in_class(const accuracy_class& a, const att_case<T>& c) {
  return blackbox::plain_in_class(a, c.q, c.k, c.v);
}

/// An exact (MPFR) variant of attention for the diagnosis: scores scaled by
/// `scale`, key j counted mult[j] times (0: ignored, 2: twice), keys after
/// the query masked when `causal`, and key `skip_z` (if any) left out of the
/// softmax denominator only (its value still weighted in the numerator).
template <class T>
matrix<hp> attention_variant(const att_case<T>& c, const hp& scale, const std::vector<int>& mult, bool causal,
                             std::size_t skip_z = SIZE_MAX) {
  const std::size_t nq = c.q.rows, nk = c.k.rows, d = c.q.cols, dv = c.v.cols;
  matrix<hp> out(nq, dv);
  for (std::size_t i = 0; i < nq; ++i) {
    std::vector<hp> s(nk);
    hp m = 0;
    bool any = false;
    for (std::size_t j = 0; j < nk; ++j) {
      hp dot = 0;
      for (std::size_t l = 0; l < d; ++l) dot += convert<hp>(c.q(i, l)) * convert<hp>(c.k(j, l));
      s[j] = dot * scale;
      if (!any || s[j] > m) m = s[j];
      any = true;
    }
    hp z = 0;
    std::vector<hp> p(nk);
    for (std::size_t j = 0; j < nk; ++j) {
      const int w = causal && j > i ? 0 : mult[j];
      p[j] = hp(double(w)) * exp(s[j] - m);
      if (j != skip_z) z += p[j];
    }
    for (std::size_t col = 0; col < dv; ++col) {
      hp o = 0;
      for (std::size_t j = 0; j < nk; ++j) o += p[j] * convert<hp>(c.v(j, col));
      out(i, col) = z > 0 ? hp(o / z) : hp(0);
    }
  }
  return out;
}

/// Names the class of a disagreement with the reference in case c (item by
/// item: the scale, a causal mask, a key ignored or counted twice, an error
/// the size of float16/bfloat16 storage or float16 accumulation). The
/// accuracy classes the error is consistent with go to `classes`, in order:
/// they are advice only once the laws pass with them (run.cpp, verify_advice).
template <class T>
std::string diagnose_attention(const check_run& cx, const att_case<T>& c, const matrix<T>& out,
                               const matrix<hp>& ref, const matrix<hp>& tol, std::vector<std::string>& classes) {
  const std::size_t nk = c.k.rows, d = c.q.cols, dv = c.v.cols;
  auto ratio = [&](const matrix<hp>& alt) {  // max |out - alt| / tolerance
    hp r = 0;
    for (std::size_t e = 0; e < alt.a.size(); ++e) r = hmax(r, hp(abs(convert<hp>(out.a[e]) - alt.a[e]) / tol.a[e]));
    return r;
  };
  std::vector<int> ones(nk, 1);
  std::vector<std::string> found;
  const hp rs = hp(1) / sqrt(hp(double(d)));
  if (dv != d && ratio(attention_variant(c, hp(1) / sqrt(hp(double(dv))), ones, false)) <= 1)
    found.push_back("it scales the scores by 1/sqrt(d_v) instead of 1/sqrt(d)");
  if (ratio(attention_variant(c, hp(1), ones, false)) <= 1) found.push_back("it does not scale the scores (1/sqrt(d) missing)");
  if (c.q.rows > 1 && ratio(attention_variant(c, rs, ones, true)) <= 1)
    found.push_back("it applies a causal mask (keys after the query are dropped)");
  for (int w : {0, 2}) {
    std::string which;
    for (std::size_t j = 0; j < nk && nk > 1; ++j) {
      auto m = ones;
      m[j] = w;
      if (ratio(attention_variant(c, rs, m, false)) <= 1) which += (which.empty() ? "" : ", ") + std::to_string(j);
    }
    if (!which.empty()) found.push_back(std::string(w ? "it counts key " : "it ignores key ") + which + (w ? " twice" : ""));
  }
  // the normaliser: the values are weighted right, the softmax denominator is
  // not. A key left out of the denominator only; otherwise, every output row
  // the reference row times its own factor (an online softmax whose running
  // sum is not rescaled when the maximum grows, a denominator from other scores).
  if (found.empty() && nk > 1) {
    std::string which;
    for (std::size_t j = 0; j < nk; ++j)
      if (ratio(attention_variant(c, rs, ones, false, j)) <= 1) which += (which.empty() ? "" : ", ") + std::to_string(j);
    if (!which.empty()) found.push_back("it leaves key " + which + " out of the softmax denominator (its value still weighted)");
  }
  if (found.empty()) {
    matrix<hp> scaled = ref;
    hp far = 0, far_f = 1;
    std::size_t far_row = 0;
    for (std::size_t i = 0; i < ref.rows; ++i) {
      hp num = 0, den = 0;
      for (std::size_t col = 0; col < dv; ++col) {
        num += convert<hp>(out(i, col)) * ref(i, col);
        den += ref(i, col) * ref(i, col);
      }
      const hp f = den > 0 ? hp(num / den) : hp(1);
      for (std::size_t col = 0; col < dv; ++col) scaled(i, col) = f * ref(i, col);
      if (abs(f - 1) > far) {
        far = abs(f - 1);
        far_f = f;
        far_row = i;
      }
    }
    if (far > 0 && ratio(scaled) <= 1)
      found.push_back("every output row is the reference row times its own factor (row " + std::to_string(far_row) +
                      ": " + ref::to_decimal(far_f, 4) +
                      "): the values are weighted right but the softmax normaliser is wrong (e.g. an online "
                      "softmax whose running sum is not rescaled when the maximum grows)");
  }
  // low precision: the error in units of each candidate u, and whether
  // posverify's plain implementation in that class errs as much
  hp err = 0;
  for (std::size_t e = 0; e < ref.a.size(); ++e) err = hmax(err, hp(abs(convert<hp>(out.a[e]) - ref.a[e])));
  hp vmax = 0;
  for (auto x : c.v.a) vmax = hmax(vmax, hp(abs(convert<hp>(x))));
  std::string units = "largest error " + ref::to_decimal(err, 3);
  std::string consistent;
  for (const char* name : kAccuracyClasses) {
    const accuracy_class a = parse_accuracy(name);
    if (a.u <= double(unit_roundoff<T>()) || !coarser(a, cx.accuracy)) continue;
    const auto plain = plain_in_class(a, c);
    hp perr = 0;
    for (std::size_t e = 0; e < ref.a.size(); ++e) perr = hmax(perr, hp(abs(convert<hp>(plain.a[e]) - ref.a[e])));
    if (!a.accumulate && !a.accumulate_pv)
      units += ", " + ref::to_decimal(hp(err / (vmax * a.u)), 3) + " u_" + name + " of max|v|";
    if (err <= reference_law::flash_c * perr + reference_law::floor_ulps * convert<hp>(a.u) * vmax) {
      consistent += std::string(consistent.empty() ? "the error is consistent with " : " and with ") +
                    cause_of(a) + " (posverify's plain " + name + " implementation errs by " +
                    ref::to_decimal(perr, 3) + " here)";
      classes.push_back(name);
    }
  }
  if (found.empty()) found.push_back(consistent.empty() ? "no single cause found (" + units + ")" : consistent + " (" + units + ")");
  std::string msg;
  for (const auto& f : found) msg += (msg.empty() ? "" : "; ") + f;
  return msg;
}

template <class T>
law_result law_reference(const check_run& cx) {
  law_run L(cx, reference_law::id, type_name<T>(), "", reference_law::statement(),
            reference_law::tolerance_rule());
  if (!L.selected()) return L.finish();
  std::vector<att_case<T>> cs;
  auto ks = L.case_indices();
  for (int k : ks) {
    auto g = L.rng_for(k);
    cs.push_back(gen_case<T>(g, k));
    L.add(make_call(cs.back().q, cs.back().k, cs.back().v));
  }
  L.run();
  const hp u = law_u<T>(cx);
  // first pass: the plain implementation's error in units of B, over the run
  std::vector<matrix<hp>> refs(ks.size()), bounds(ks.size());
  std::vector<matrix<T>> plains(ks.size());
  hp R = 0;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const auto& c = cs[i];
    refs[i] = attention(convert_matrix<hp>(c.q), convert_matrix<hp>(c.k), convert_matrix<hp>(c.v));
    plains[i] = cx.accuracy.u > 0 ? plain_in_class(cx.accuracy, c) : attention(c.q, c.k, c.v);
    bounds[i] = apriori_bound(cx, c.q, c.k, c.v);
    reference_law::raise_plain_ratio(R, plains[i], refs[i], bounds[i]);
  }
  L.result_ref().extra.set("plain_error_over_bound", json::number(ref::to_decimal(R, 6)));
  auto describe_case = [&](std::size_t i) { return describe(cs[i]); };
  L.each_case(ks, 1, describe_case, [&](std::size_t i, const describer& desc) {
    const auto& c = cs[i];
    auto out = out_of<T>(L, i, c.q.rows, c.v.cols);
    const auto& ref = refs[i];
    const auto& plain = plains[i];
    const hp floor = reference_law::floor_of(c.v, u);
    // report the entry with the largest error relative to its tolerance
    const auto o = reference_law::compare(out, ref, bounds[i], R, floor);
    bool ok = true;
    if (o.found)
      ok = L.within(ks[i], o.diff, o.bound,
                    entry(o.row, o.col) + " (got " + to_decimal(out(o.row, o.col)) + ", reference " +
                        ref::to_decimal(ref(o.row, o.col), 20) + ", plain " + to_decimal(plain(o.row, o.col)) + ")",
                    desc);
    if (!ok) {
      auto& advise = L.result_ref().advise;
      L.diagnose(diagnose_attention(cx, c, out, ref, reference_law::tolerances(R, bounds[i], floor), advise));
    }
    return ok;
  });
  return L.finish();
}

/// The two permutation laws share their case generator: each case calls
/// attention on the original and on the permuted inputs. Permuting the
/// queries moves the output rows (laws/attention/permutation_equivariance.h);
/// permuting keys and values together moves nothing
/// (laws/attention/key_value_permutation.h).
template <class T>
law_result law_permuted_pair(const check_run& cx, bool keys_and_values) {
  namespace perm_law = laws::permutation_equivariance;
  namespace kv_law = laws::key_value_permutation;
  law_run L(cx, keys_and_values ? kv_law::id : perm_law::id, type_name<T>(), "",
            keys_and_values ? kv_law::statement() : perm_law::statement_qkv(),
            keys_and_values ? kv_law::any_order_tolerance_rule() : perm_law::any_order_tolerance_rule());
  if (!L.selected()) return L.finish();
  const auto ks = L.case_indices();
  const auto cs = add_perm_cases<T>(L, ks, keys_and_values);
  L.run();
  auto describe_case = [&](std::size_t i) { return describe(cs[i]); };
  L.each_case(ks, 2, describe_case, [&](std::size_t i, const describer& desc) {
    const auto& c = cs[i].c;
    const auto& p = cs[i].p;
    auto o1 = out_of<T>(L, 2 * i, c.q.rows, c.v.cols);
    auto o2 = out_of<T>(L, 2 * i + 1, c.q.rows, c.v.cols);
    auto B = apriori_bound(cx, c.q, c.k, c.v);
    bool ok = true;
    auto report = [&](const perm_law::entry<T>& e) {
      const std::string what =
          keys_and_values
              ? entry(e.row, e.col) + ": A(q, Pk, Pv) = " + to_decimal(e.permuted) +
                    ", A(q, k, v) = " + to_decimal(e.original)
              : entry(e.row, e.col) + " of A(Pq) (" + to_decimal(e.permuted) + ") vs entry (" +
                    std::to_string(e.source) + ", " + std::to_string(e.col) + ") of A(q) (" +
                    to_decimal(e.original) + ")";
      ok = L.within(ks[i], e.diff, e.bound, what, desc);
      return ok;
    };
    if (keys_and_values) kv_law::compare_any_order(o1, o2, B, report);
    else perm_law::compare_any_order(o1, o2, p, B, report);
    return ok;
  });
  return L.finish();
}

template <class T>
law_result law_convex_hull(const check_run& cx) {
  namespace law = laws::convex_hull;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::any_order_tolerance_rule());
  if (!L.selected()) return L.finish();
  std::vector<att_case<T>> cs;
  auto ks = L.case_indices();
  for (int k : ks) {
    auto g = L.rng_for(k);
    cs.push_back(gen_case<T>(g, k));
    auto& c = cs.back();
    if (k % 2 == 0) c.v = matrix<T>::identity(c.k.rows);
    L.add(make_call(c.q, c.k, c.v));
  }
  L.run();
  auto describe_case = [&](std::size_t i) { return describe(cs[i]); };
  L.each_case(ks, 1, describe_case, [&](std::size_t i, const describer& desc) {
    const auto& c = cs[i];
    auto o = out_of<T>(L, i, c.q.rows, c.v.cols);
    auto B = apriori_bound(cx, c.q, c.k, c.v);
    bool ok = true;
    law::compare_any_order(o, c.v, B, ks[i] % 2 == 0, [&](const law::entry& e) {
      ok = e.row_sum ? L.within(ks[i], e.excess, e.bound,
                                "row " + std::to_string(e.row) + " with v = I sums to " +
                                    ref::to_decimal(e.value, 20),
                                desc)
                     : L.within(ks[i], e.excess, e.bound,
                                entry(e.row, e.col) + " = " + to_decimal(o(e.row, e.col)) +
                                    " vs the column's range [" + ref::to_decimal(e.lo) + ", " +
                                    ref::to_decimal(e.hi) + "]",
                                desc);
      // a row of weights that does not sum to 1: the keys' weights and the normaliser read at this shape
      if (!ok && e.row_sum)
        if (const std::string dg = diagnose_normaliser<T>(cx, {c.q.rows, c.k.rows, c.q.cols, c.v.cols}, e.row);
            !dg.empty())
          L.diagnose(dg);
      return ok;
    });
    return ok;
  });
  return L.finish();
}

template <class T>
law_result law_score_shift(const check_run& cx) {
  namespace law = laws::score_shift;
  law_run L(cx, law::id, type_name<T>(), "", law::statement(), law::any_order_tolerance_rule());
  if (!L.selected()) return L.finish();
  struct shift_case {
    att_case<T> c;
    law::shifted<T> s;
  };
  std::vector<shift_case> cs;
  auto ks = L.case_indices();
  for (int k : ks) {
    auto g = L.rng_for(k);
    shift_case s;
    s.c = gen_case<T>(g, k);
    const double big = (k % 2 ? 30.0 : 2000.0) * std::sqrt(double(s.c.q.cols + 1));
    std::vector<double> a(s.c.q.rows);
    for (auto& x : a) x = g.real(0.25, 1.0) * big;
    s.s = law::shift_scores(s.c.q, s.c.k, a);
    cs.push_back(s);
    L.add(make_call(s.s.q1, s.s.k1, s.c.v));
    L.add(make_call(s.s.q0, s.s.k1, s.c.v));
  }
  L.run();
  auto describe_case = [&](std::size_t i) {
    const auto& s = cs[i];
    return "q' = " + to_string(s.s.q1) + "\nk' = " + to_string(s.s.k1) + "\nv = " + to_string(s.c.v);
  };
  L.each_case(ks, 2, describe_case, [&](std::size_t i, const describer& desc) {
    const auto& s = cs[i].s;
    const auto& v = cs[i].c.v;
    auto o1 = out_of<T>(L, 2 * i, s.q1.rows, v.cols);
    auto o0 = out_of<T>(L, 2 * i + 1, s.q1.rows, v.cols);
    auto B1 = apriori_bound(cx, s.q1, s.k1, v), B0 = apriori_bound(cx, s.q0, s.k1, v);
    bool ok = true;
    law::compare_any_order(o1, o0, B1, B0, [&](const law::entry<T>& e) {
      ok = L.within(ks[i], e.diff, e.bound,
                    entry(e.row, e.col) + " with shift a = " + to_decimal(s.q1(e.row, s.q1.cols - 1)) + ": " +
                        to_decimal(e.shifted_out) + " vs unshifted " + to_decimal(e.unshifted_out),
                    desc);
      return ok;
    });
    return ok;
  });
  return L.finish();
}

template <class T>
void all_for(const check_run& cx, std::vector<law_result>& out) {
  out.push_back(law_reference<T>(cx));
  out.push_back(law_permuted_pair<T>(cx, false));
  out.push_back(law_permuted_pair<T>(cx, true));
  out.push_back(law_convex_hull<T>(cx));
  out.push_back(law_score_shift<T>(cx));
}

}  // namespace

std::vector<law_result> attention_laws(const check_run& cx) {
  std::vector<law_result> out;
  all_for<float>(cx, out);
  if (!cx.float_only) all_for<double>(cx, out);
  return out;
}

// the attention laws, first of attention (laws.h)
const law_group_registrar attention_laws_group(op::attention, 0, [](const check_run& cx, json&, json&) { return attention_laws(cx); });

// the probe of declines.h: 2 queries, 3 keys, d = d_v = 4
const probe_registrar attention_declines_probe(op::attention, [](const check_run&, pv_dtype t) {
  return in_dtype(t, [](auto zero) {
    using T = decltype(zero);
    return std::vector<call>{attention_call(probe_matrix<T>(2, 4), probe_matrix<T>(3, 4), probe_matrix<T>(3, 4))};
  });
});

}  // namespace pv::blackbox
