// rope.attention_translation_invariance through the C interface: attention over
// rotated rows is the same when every position moves by the same shift; its
// id and statement come from src/laws/rope/attention_translation_invariance.h.
#include "blackbox/rope_law_kit.h"
#include "laws/rope/attention_translation_invariance.h"
#include "reference/fast/fast.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pv::blackbox::rope_kit {
namespace {

/// rope.attention_translation_invariance's first look (law_run::within_fast):
/// each side's attention over the returned rows by the fast tier (double-word,
/// certified: fast::attention with V and |V| side by side, so that the weighted
/// sum of |V| of the law's bound comes with it), against what the law computes
/// in MPFR at p bits. MPFR's own error there, per unit of sum_b w_b |V_bc|:
/// the dots (d products and sums, 2^-p each, of at most M = max_ab sum_c
/// |y_ac y_bc| / sqrt d), the scale, S - m, exp, z, the division and the sum
/// over b: within (8 (d + 4) M + 4 (3 n + 4)) 2^-p. The bound from below:
/// D >= the scores' binary64 bound (dot_within_fast), (e^{2D} - 1) e^{2D}
/// from binary64 expm1 and exp (within 2^-50, and MPFR's e^{2D} - 1 within
/// 2^(2-p) absolute), sum_b w_b |V| from the fast tier's lower end.
struct translation_look {
  std::size_t n = 0, d = 0;
  bool ok = false;
  std::vector<double> above, below;  ///< per entry (a, c): |difference| from above, bound from below
  double error_above(std::size_t a, std::size_t c) const { return ok ? above[a * d + c] : INFINITY; }
  double bound_below(std::size_t a, std::size_t c) const { return ok ? below[a * d + c] : -1; }
};

template <class T>
translation_look look_at_translation(const rotated<T>& R, const matrix<T>& x) {
  translation_look t;
  const std::size_t n = x.rows, d = x.cols;
  t.n = n, t.d = d;
  const double rs_hi = (1 / std::sqrt(double(d))) * (1 + 0x1p-50), rs_lo = (1 / std::sqrt(double(d))) * (1 - 0x1p-50);
  const double p2 = std::ldexp(1.0, -int(ref::precision_bits()));
  std::vector<double> vd(n * 2 * d);
  for (std::size_t b = 0; b < n; ++b)
    for (std::size_t c = 0; c < d; ++c) vd[b * 2 * d + c] = double(x(b, c)), vd[b * 2 * d + d + c] = std::fabs(double(x(b, c)));
  fast::result f[2];
  std::vector<double> D[2], eta[2];
  for (int side = 0; side < 2; ++side) {
    std::vector<double> yd(n * d);
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t c = 0; c < d; ++c) yd[a * d + c] = double(R.y(side * n + a, c));
    try {
      f[side] = fast::attention(yd.data(), yd.data(), vd.data(), n, n, d, 2 * d, 1);
    } catch (const std::exception&) {
      return t;  // outside the fast tier's range: every entry judged in MPFR
    }
    D[side].assign(n, 0.0);
    eta[side].assign(n, 0.0);
    for (std::size_t a = 0; a < n; ++a) {
      double M = 0;
      for (std::size_t b = 0; b < n; ++b) {
        const dot_look dl = dot_within_fast(R, side * n + a, side * n + b);
        if (dl.bound_below < 0) D[side][a] = -1;
        else if (D[side][a] >= 0) D[side][a] = std::max(D[side][a], dl.bound_below * rs_lo);
        M = std::max(M, dl.mag * (1 + 0x1p-40) * rs_hi);
      }
      eta[side][a] = (8 * double(d + 4) * M + 4 * double(3 * n + 4)) * p2;
    }
  }
  t.above.resize(n * d);
  t.below.resize(n * d);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t c = 0; c < d; ++c) {
      double diff_err = 0, bound = 0;
      bool bounded = true;
      for (int side = 0; side < 2; ++side) {
        const std::size_t e = a * 2 * d + c, es = a * 2 * d + d + c;
        const double sv_hi = (f[side].value[es].hi + f[side].bound[es]) * (1 + 0x1p-50);
        const double sv_lo = std::max(0.0, (f[side].value[es].hi - f[side].bound[es] - std::fabs(f[side].value[es].lo)) -
                                               sv_hi * eta[side][a]) * (1 - 0x1p-50);
        diff_err += f[side].bound[e] + sv_hi * eta[side][a] + 0x1p-51 * std::fabs(f[side].value[e].lo);
        const double Da = D[side][a];
        if (Da < 0) bounded = false;
        else
          bound += std::max(0.0, std::expm1(2 * Da) * (1 - 0x1p-50) - std::ldexp(1.0, 2 - int(ref::precision_bits()))) *
                   std::exp(2 * Da) * (1 - 0x1p-50) * sv_lo;
      }
      const double diff = std::fabs((f[0].value[a * 2 * d + c].hi - f[1].value[a * 2 * d + c].hi) +
                                    (f[0].value[a * 2 * d + c].lo - f[1].value[a * 2 * d + c].lo));
      const double above = (diff + diff_err) * (1 + 0x1p-40);
      t.above[a * d + c] = std::isfinite(above) ? above : INFINITY;
      t.below[a * d + c] = bounded && std::isfinite(bound) ? bound * (1 - 0x1p-48) : -1;
    }
  t.ok = true;
  return t;
}

}  // namespace

template <class T>
law_result law_attention_translation(const check_run& cx, const rope_cfg& rc, const kernel_speeds& speeds) {
  namespace law = laws::attention_translation_invariance;
  law_run Lr(cx, law::id, type_name<T>(), rc.name, law::statement(),
             law::kernel_tolerance_rule(rotation_rule()));
  Lr.seed_cases_from(law::check_case_stream);
  if (!Lr.selected()) return Lr.finish();
  const auto L = reference_layout(rc.c);
  const std::size_t na = std::size_t(rc.c.n_axes), d = std::size_t(rc.c.head_dim);
  const long P = position_limit(cx, rc);
  auto ks = Lr.case_indices();
  std::vector<matrix<T>> xs, x2s;
  std::vector<std::vector<double>> ps;
  for (int k : ks) {
    auto g = Lr.rng_for(k);
    const std::size_t n = std::size_t(g.range(2, 5));
    auto x = random_matrix<T>(g, n, d, 0.3);
    matrix<T> x2(2 * n, d);
    std::vector<double> pos(2 * n * na);
    std::vector<double> s(na);
    for (auto& v : s) v = coord(g, P / 2);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t c = 0; c < d; ++c) x2(i, c) = x2(n + i, c) = x(i, c);
      for (std::size_t a = 0; a < na; ++a) {
        pos[i * na + a] = coord(g, P / 2);
        pos[(n + i) * na + a] = pos[i * na + a] + s[a];
      }
    }
    xs.push_back(x);
    x2s.push_back(x2);
    ps.push_back(pos);
    Lr.add(rope_call(rc.c, x2, pos));
  }
  Lr.run();
  const hp rs = hp(1) / sqrt(hp(double(d)));
  auto describe_case = [&](std::size_t i) { return describe_rows(rc, x2s[i], ps[i]); };
  const rope_evaluator<T> evaluate(L, rc, rope_law_units<T>(cx), &speeds);
  Lr.each_case(ks, 1, describe_case, [&](std::size_t i, const describer& desc) {
    auto R = evaluate(x2s[i], ps[i], Lr.results()[i].out);
    const std::size_t n = xs[i].rows;
    const translation_look look = look_at_translation(R, xs[i]);
    matrix<hp> outs[2], bounds[2], V;  // V: the case's rows in MPFR, converted once, at the first exact row
    std::vector<bool> row_done(n, false);
    // in MPFR, row a of both sides, when the first look leaves one of its entries to judge
    const auto exact_row = [&](std::size_t a) {
      if (row_done[a]) return;
      row_done[a] = true;
      if (outs[0].rows == 0) {
        for (int side = 0; side < 2; ++side) outs[side] = bounds[side] = matrix<hp>(n, d);
        V = convert_matrix<hp>(xs[i]);
      }
      for (int side = 0; side < 2; ++side) {
        std::vector<hp> S(n), Bd(n);
        for (std::size_t b = 0; b < n; ++b) {
          hp dt, bd;
          dot_within(R, side * n + a, side * n + b, dt, bd);
          S[b] = dt * rs;
          Bd[b] = bd * rs;
        }
        hp m = S[0], D = 0, z = 0;
        for (std::size_t b = 0; b < n; ++b) {
          m = hmax(m, S[b]);
          D = hmax(D, Bd[b]);
        }
        std::vector<hp> p(n);
        for (std::size_t b = 0; b < n; ++b) z += (p[b] = exp(S[b] - m));
        hp e2 = exp(2 * D);
        for (auto& w : p) w /= z;  // the weights (p_b / z, as each entry used to divide them)
        for (std::size_t c = 0; c < d; ++c) {
          hp o = 0, sv = 0;
          for (std::size_t b = 0; b < n; ++b) {
            o += p[b] * V(b, c);
            sv += p[b] * abs(V(b, c));
          }
          outs[side](a, c) = o;
          bounds[side](a, c) = law::kernel_entry_bound(e2, sv);
        }
      }
    };
    bool ok = true;
    for (std::size_t a = 0; a < n && ok; ++a)
      for (std::size_t c = 0; c < d && ok; ++c)
        ok = Lr.within_fast(
            ks[i], look.error_above(a, c), look.bound_below(a, c),
            [&] {
              exact_row(a);
              const auto o = law::compare_entry(outs[0](a, c), outs[1](a, c), bounds[0](a, c), bounds[1](a, c));
              return std::pair<hp, hp>(o.diff, o.bound);
            },
            [&] {
              return "attention output (" + std::to_string(a) + ", " + std::to_string(c) + "): " +
                     ref::to_decimal(outs[0](a, c), 20) + " vs shifted " + ref::to_decimal(outs[1](a, c), 20);
            },
            desc);
    return ok;
  });
  return Lr.finish();
}

template law_result law_attention_translation<float>(const check_run&, const rope_cfg&, const kernel_speeds&);
template law_result law_attention_translation<double>(const check_run&, const rope_cfg&, const kernel_speeds&);

}  // namespace pv::blackbox::rope_kit
