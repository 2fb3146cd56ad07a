// Attention laws through the C interface.
//
// Tolerances. Every law that compares two outputs of the library with each
// other (or with an exact set) uses the a-priori bound B of one output entry
// against the exact value of its inputs:
//   B_ic = [(e^{2D_i} - 1) + gamma_{4n+4} e^{2D_i}] sum_j p_ij |v_jc| + n mu |v|_max,c
//   D_i  = max_j [gamma_{d+3} sum_l |q_il k_jl| / sqrt(d) + u |s_ij - max_j s_ij| + 2u]
// (D bounds the error of a computed score after the max-subtraction and exp,
// each rounding at most one ulp; a relative score error D changes each weight
// by at most a factor e^{+-D}, the normalised weights by e^{+-2D}; the sums
// over keys -- recursive, pairwise, blocked or online with one rescaling per
// key -- cost at most gamma_{4n+4}; mu is the smallest normal number, the
// absolute error of an exponential that underflows.) Agreement with the
// high-precision reference uses FlashAttention's rule instead: the error may
// be at most c times the error of the plain same-dtype implementation plus a
// floor of a few units in the last place of the values.
#include "check/law.h"
#include "laws/permutation_equivariance.h"
#include "posverify/attention.h"
#include "posverify/error_bounds.h"
#include "posverify/permutation.h"

#include <algorithm>
#include <cmath>  // std::exp, std::sqrt of the emulated plain implementation

namespace pv::check {
namespace {

/// c of the FlashAttention rule (their tests use 2 against a float32 reference
/// for fp16/bf16 kernels; we keep 2) and the floor in units of u max|V|.
constexpr int kFlashC = 2;
constexpr int kFloorUlps = 8;

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
    pc.p = laws::permutation_equivariance::draw_order(g, keys ? c.k.rows : c.q.rows);
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

/// The a-priori bound B of every output entry (see the file comment).
/// Not attention_forward_bound (pv::attention's own sums): a user's kernel may sum in any order.
/// With a declared accuracy class (--accuracy) u is that format's unit
/// roundoff (storage roundings of q, k, v are among the roundings gamma counts)
/// and, when it accumulates in that format, mu its smallest normal.
template <class T>
matrix<hp> apriori_bound(const context& cx, const matrix<T>& Q, const matrix<T>& K, const matrix<T>& V) {
  const std::size_t n = K.rows, d = Q.cols;
  const hp u = law_u<T>(cx);
  const hp gd = gamma_at(long(d) + 3, u), gn = gamma_at(4 * long(n) + 4, u);
  const hp mu = hmax(convert<hp>(std::numeric_limits<T>::min()),
                     cx.accuracy.accumulate ? convert<hp>(std::ldexp(1.0, cx.accuracy.emin)) : hp(0));
  const hp rs = hp(1) / sqrt(hp(static_cast<double>(d)));
  matrix<hp> B(Q.rows, V.cols);
  for (std::size_t i = 0; i < Q.rows; ++i) {
    std::vector<hp> s(n), a(n);
    for (std::size_t j = 0; j < n; ++j) {
      hp dot = 0, ab = 0;
      for (std::size_t l = 0; l < d; ++l) {
        hp t = convert<hp>(Q(i, l)) * convert<hp>(K(j, l));
        dot += t;
        ab += abs(t);
      }
      s[j] = dot * rs;
      a[j] = ab * rs;
    }
    hp m = *std::max_element(s.begin(), s.end());
    hp D = 0, z = 0;
    std::vector<hp> p(n);
    for (std::size_t j = 0; j < n; ++j) {
      D = hmax(D, hp(gd * a[j] + u * abs(s[j] - m) + 2 * u));
      p[j] = exp(s[j] - m);
      z += p[j];
    }
    hp e2 = exp(2 * D);
    for (std::size_t c = 0; c < V.cols; ++c) {
      hp S = 0, vmax = 0;
      for (std::size_t j = 0; j < n; ++j) {
        S += p[j] / z * abs(convert<hp>(V(j, c)));
        vmax = hmax(vmax, hp(abs(convert<hp>(V(j, c)))));
      }
      B(i, c) = ((e2 - 1) + gn * e2) * S + hp(static_cast<double>(n)) * mu * vmax;
    }
  }
  return B;
}

std::string entry(std::size_t i, std::size_t c) {
  return "output entry (" + std::to_string(i) + ", " + std::to_string(c) + ")";
}

std::string bound_rule() {
  return "B = [(e^{2D} - 1) + gamma_{4n+4} e^{2D}] sum_j p_j |v_jc| + n mu max_j |v_jc|, "
         "D = max_j [gamma_{d+3} sum_l |q_l k_jl| / sqrt(d) + u |s_j - max s| + 2u] "
         "(a-priori bound of one output entry against the exact value: score dot products "
         "gamma_{d+3}, max-subtraction and exp one ulp each, sums over keys in any order "
         "or streamed with one rescaling per key gamma_{4n+4}, mu = smallest normal for "
         "underflowing exponentials)";
}

/// posverify's plain attention in a declared accuracy class: q, k and v
/// rounded to the class's format (storage, emulated exactly), then the textbook
/// order (max-subtracted scores, left-to-right sums, one division per entry)
/// with every operation rounded to float32, or to the format itself for
/// float16-accumulation. Computed in double, each result rounded explicitly.
template <class T>
matrix<T> plain_in_class(const accuracy_class& a, const att_case<T>& c) {
  auto acc = [&](double x) { return a.accumulate ? round_to_format(x, a) : double(float(x)); };
  auto st = [&](const matrix<T>& m) {
    matrix<double> r(m.rows, m.cols);
    for (std::size_t e = 0; e < m.a.size(); ++e) r.a[e] = round_to_format(double(m.a[e]), a);
    return r;
  };
  const auto q = st(c.q), k = st(c.k), v = st(c.v);
  const std::size_t nq = q.rows, nk = k.rows, d = q.cols, dv = v.cols;
  const double scale = acc(1.0 / std::sqrt(double(d)));
  matrix<T> out(nq, dv);
  std::vector<double> e(nk);
  for (std::size_t i = 0; i < nq; ++i) {
    double m = -INFINITY, z = 0;
    for (std::size_t j = 0; j < nk; ++j) {
      double s = 0;
      for (std::size_t l = 0; l < d; ++l) s = acc(s + acc(q(i, l) * k(j, l)));
      e[j] = acc(s * scale);
      m = std::max(m, e[j]);
    }
    for (std::size_t j = 0; j < nk; ++j) z = acc(z + (e[j] = acc(std::exp(acc(e[j] - m)))));
    for (std::size_t col = 0; col < dv; ++col) {
      double o = 0;
      for (std::size_t j = 0; j < nk; ++j) o = acc(o + acc(e[j] * v(j, col)));
      out(i, col) = static_cast<T>(acc(o / z));
    }
  }
  return out;
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
/// the size of float16/bfloat16 storage or float16 accumulation).
template <class T>
std::string diagnose_attention(const context& cx, const att_case<T>& c, const matrix<T>& out,
                               const matrix<hp>& ref, const matrix<hp>& tol) {
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
  for (const char* name : {"float16", "bfloat16", "float16-accumulation"}) {
    const accuracy_class a = parse_accuracy(name);
    if (a.u <= convert<double>(law_u<T>(cx))) continue;
    const auto plain = plain_in_class(a, c);
    hp perr = 0;
    for (std::size_t e = 0; e < ref.a.size(); ++e) perr = hmax(perr, hp(abs(convert<hp>(plain.a[e]) - ref.a[e])));
    if (std::string(name) != "float16-accumulation")
      units += ", " + ref::to_decimal(hp(err / (vmax * a.u)), 3) + " u_" + name + " of max|v|";
    if (consistent.empty() && err <= kFlashC * perr + kFloorUlps * convert<hp>(a.u) * vmax)
      consistent = std::string("the error is consistent with ") +
                   (a.accumulate ? "float16 accumulation" : std::string(name) + " storage") +
                   " (posverify's plain " + name + " implementation errs by " + ref::to_decimal(perr, 3) +
                   " here): if the kernel is meant to compute so, declare it with --accuracy " + name;
  }
  if (found.empty()) found.push_back(consistent.empty() ? "no single cause found (" + units + ")" : consistent + " (" + units + ")");
  std::string msg;
  for (const auto& f : found) msg += (msg.empty() ? "" : "; ") + f;
  return msg;
}

template <class T>
law_result law_reference(const context& cx) {
  law_run L(cx, "attention.reference", type_name<T>(), "",
            "softmax(q k^T / sqrt(d)) v agrees with the high-precision (MPFR) reference",
            "FlashAttention's rule, made scale-free: |out - ref| <= c R B + " +
                std::to_string(kFloorUlps) + " u max|v| per entry, c = " + std::to_string(kFlashC) +
                ", R = the largest |plain - ref| / B over all cases of the run, where plain is the "
                "textbook same-dtype implementation (max-subtracted, left-to-right sums, one "
                "division per entry; with --accuracy, the same in the declared class: inputs "
                "rounded to its format, every operation rounded to float32 or, for "
                "float16-accumulation, to float16), ref is MPFR and B the a-priori bound of the entry (" +
                bound_rule() + "); FlashAttention compares the largest error over a whole tensor, "
                "our cases are small and of very different scales, so errors are compared in units "
                "of B and maximised over the run");
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
    for (std::size_t e = 0; e < refs[i].a.size(); ++e)
      if (bounds[i].a[e] > 0)
        R = hmax(R, hp(abs(convert<hp>(plains[i].a[e]) - refs[i].a[e]) / bounds[i].a[e]));
  }
  L.result_ref().extra.set("plain_error_over_bound", json::number(ref::to_decimal(R, 6)));
  auto describe_case = [&](std::size_t i) { return describe(cs[i]); };
  L.each_case(ks, 1, describe_case, [&](std::size_t i, const describer& desc) {
    const auto& c = cs[i];
    auto out = out_of<T>(L, i, c.q.rows, c.v.cols);
    const auto& ref = refs[i];
    const auto& plain = plains[i];
    hp vmax = 0;
    for (auto x : c.v.a) vmax = hmax(vmax, hp(abs(convert<hp>(x))));
    const hp floor = kFloorUlps * u * vmax;
    bool ok = true;
    // report the entry with the largest error relative to its tolerance
    hp worst = -1;
    std::size_t wi = 0, wc = 0;
    for (std::size_t r = 0; r < out.rows; ++r)
      for (std::size_t col = 0; col < out.cols; ++col) {
        hp tol = kFlashC * R * bounds[i](r, col) + floor;
        hp e = abs(convert<hp>(out(r, col)) - ref(r, col));
        hp q = e / tol;
        if (q > worst) {
          worst = q;
          wi = r;
          wc = col;
        }
      }
    if (worst >= 0) {
      hp tol = kFlashC * R * bounds[i](wi, wc) + floor;
      ok = L.within(ks[i], abs(convert<hp>(out(wi, wc)) - ref(wi, wc)), tol,
                    entry(wi, wc) + " (got " + to_decimal(out(wi, wc)) + ", reference " +
                        ref::to_decimal(ref(wi, wc), 20) + ", plain " + to_decimal(plain(wi, wc)) + ")",
                    desc);
    }
    if (!ok) {
      matrix<hp> tols(out.rows, out.cols);
      for (std::size_t e = 0; e < tols.a.size(); ++e) tols.a[e] = kFlashC * R * bounds[i].a[e] + floor;
      const std::string dg = diagnose_attention(cx, c, out, ref, tols);
      L.result_ref().extra.set("diagnosis", json::string(dg));
      L.result_ref().finding += "; diagnosis: " + dg;
    }
    return ok;
  });
  return L.finish();
}

/// The two permutation laws share their cases and their bound: each case
/// calls attention on the original and on the permuted inputs, and output row
/// r of the second call is compared with row `source(r)` of the first, within
/// 2 B. Permuting the queries moves the rows (source = perm); permuting keys
/// and values together moves nothing (source = identity).
template <class T>
law_result law_permuted_pair(const context& cx, bool keys_and_values) {
  law_run L(cx,
            keys_and_values ? "attention.key_value_permutation"
                            : laws::permutation_equivariance::id,
            type_name<T>(), "",
            keys_and_values
                ? "permuting keys and values together changes nothing: A(q, Pk, Pv) = A(q, k, v)"
                : laws::permutation_equivariance::statement_qkv(),
            (keys_and_values ? "|A(q, Pk, Pv) - A(q, k, v)| <= 2 B, "
                             : "|A(Pq)_i - A(q)_perm(i)| <= 2 B, ") +
                bound_rule());
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
    namespace law = laws::permutation_equivariance;
    const permutation none;
    bool ok = true;
    law::compare(
        o1, o2, keys_and_values ? none : p,
        [&](std::size_t r, std::size_t col) -> hp { return 2 * B(keys_and_values ? r : p[r], col); },
        [&](const law::entry<T>& e) {
          const std::string what =
              keys_and_values
                  ? entry(e.row, e.col) + ": A(q, Pk, Pv) = " + to_decimal(e.permuted) +
                        ", A(q, k, v) = " + to_decimal(e.original)
                  : entry(e.row, e.col) + " of A(Pq) (" + to_decimal(e.permuted) + ") vs entry (" +
                        std::to_string(e.source) + ", " + std::to_string(e.col) + ") of A(q) (" +
                        to_decimal(e.original) + ")";
          ok = L.within(ks[i], e.diff, e.bound, what, desc);
          return ok;
        });
    return ok;
  });
  return L.finish();
}

template <class T>
law_result law_convex_hull(const context& cx) {
  law_run L(cx, "attention.convex_hull", type_name<T>(), "",
            "every output row is a convex combination of the value rows: with v = I the "
            "output row is a probability vector, and in general each entry lies between the "
            "smallest and largest value of its column",
            "entries >= -B and |sum - 1| <= sum_c B (v = I), or min_j v_jc - B <= out_ic <= "
            "max_j v_jc + B; " + bound_rule());
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
    const bool simplex = ks[i] % 2 == 0;
    bool ok = true;
    for (std::size_t r = 0; r < o.rows && ok; ++r) {
      hp sum = 0, bsum = 0;
      for (std::size_t col = 0; col < o.cols && ok; ++col) {
        hp x = convert<hp>(o(r, col));
        sum += x;
        bsum += B(r, col);
        hp lo = convert<hp>(c.v(0, col)), hi = lo;
        for (std::size_t j = 1; j < c.v.rows; ++j) {
          lo = hmin(lo, convert<hp>(c.v(j, col)));
          hi = hmax(hi, convert<hp>(c.v(j, col)));
        }
        hp outside = x < lo ? hp(lo - x) : x > hi ? hp(x - hi) : hp(0);
        ok = L.within(ks[i], outside, B(r, col),
                      entry(r, col) + " = " + to_decimal(o(r, col)) + " vs the column's range [" +
                          ref::to_decimal(lo) + ", " + ref::to_decimal(hi) + "]",
                      desc);
      }
      if (ok && simplex)
        ok = L.within(ks[i], abs(sum - 1), bsum,
                      "row " + std::to_string(r) + " with v = I sums to " + ref::to_decimal(sum, 20),
                      desc);
    }
    return ok;
  });
  return L.finish();
}

template <class T>
law_result law_score_shift(const context& cx) {
  law_run L(cx, "attention.score_shift", type_name<T>(), "",
            "adding a constant to all scores of a row changes nothing (the softmax is "
            "shift invariant): with q' = [q | a_i] and k' = [k | 1] every score of row i moves "
            "by a_i / sqrt(d + 1), so A(q', k', v) = A([q | 0], k', v); a_i reaches 2000 "
            "sqrt(d + 1), where exp overflows without the max-subtraction",
            "|A(q', k', v) - A([q|0], k', v)| <= B(q', k', v) + B([q|0], k', v), " + bound_rule());
  if (!L.selected()) return L.finish();
  struct shift_case {
    att_case<T> c;
    matrix<T> q1, q0, k1;
  };
  std::vector<shift_case> cs;
  auto ks = L.case_indices();
  for (int k : ks) {
    auto g = L.rng_for(k);
    shift_case s;
    s.c = gen_case<T>(g, k);
    const std::size_t d = s.c.q.cols;
    s.q1 = matrix<T>(s.c.q.rows, d + 1);
    s.q0 = s.q1;
    s.k1 = matrix<T>(s.c.k.rows, d + 1);
    const double big = (k % 2 ? 30.0 : 2000.0) * std::sqrt(double(d + 1));
    for (std::size_t r = 0; r < s.c.q.rows; ++r) {
      for (std::size_t l = 0; l < d; ++l) s.q1(r, l) = s.q0(r, l) = s.c.q(r, l);
      s.q1(r, d) = static_cast<T>(g.real(0.25, 1.0) * big);
    }
    for (std::size_t r = 0; r < s.c.k.rows; ++r) {
      for (std::size_t l = 0; l < d; ++l) s.k1(r, l) = s.c.k(r, l);
      s.k1(r, d) = T(1);
    }
    cs.push_back(s);
    L.add(make_call(s.q1, s.k1, s.c.v));
    L.add(make_call(s.q0, s.k1, s.c.v));
  }
  L.run();
  auto describe_case = [&](std::size_t i) {
    const auto& s = cs[i];
    return "q' = " + to_string(s.q1) + "\nk' = " + to_string(s.k1) + "\nv = " + to_string(s.c.v);
  };
  L.each_case(ks, 2, describe_case, [&](std::size_t i, const describer& desc) {
    const auto& s = cs[i];
    auto o1 = out_of<T>(L, 2 * i, s.q1.rows, s.c.v.cols);
    auto o0 = out_of<T>(L, 2 * i + 1, s.q1.rows, s.c.v.cols);
    auto B1 = apriori_bound(cx, s.q1, s.k1, s.c.v), B0 = apriori_bound(cx, s.q0, s.k1, s.c.v);
    bool ok = true;
    for (std::size_t r = 0; r < o1.rows && ok; ++r)
      for (std::size_t col = 0; col < o1.cols && ok; ++col)
        ok = L.within(ks[i], abs(convert<hp>(o1(r, col)) - convert<hp>(o0(r, col))),
                      B1(r, col) + B0(r, col),
                      entry(r, col) + " with shift a = " + to_decimal(s.q1(r, s.q1.cols - 1)) +
                          ": " + to_decimal(o1(r, col)) + " vs unshifted " + to_decimal(o0(r, col)),
                      desc);
    return ok;
  });
  return L.finish();
}

template <class T>
void all_for(const context& cx, std::vector<law_result>& out) {
  out.push_back(law_reference<T>(cx));
  out.push_back(law_permuted_pair<T>(cx, false));
  out.push_back(law_permuted_pair<T>(cx, true));
  out.push_back(law_convex_hull<T>(cx));
  out.push_back(law_score_shift<T>(cx));
}

}  // namespace

std::vector<law_result> attention_laws(const context& cx) {
  std::vector<law_result> out;
  all_for<float>(cx, out);
  if (!cx.float_only) all_for<double>(cx, out);
  return out;
}

}  // namespace pv::check
