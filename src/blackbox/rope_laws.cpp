// RoPE and FLUX.1 laws through the C interface (tolerance model: blackbox/rope_model.h);
// each law's id and statement come from its header in src/laws/rope/ or src/laws/flux/.
#include "blackbox/diagnose.h"
#include "blackbox/rows_outside.h"
#include "blackbox/declines.h"
#include "blackbox/law_run.h"
#include "blackbox/laws.h"
#include "laws/flux/model_grid.h"
#include "laws/flux/nonsquare_grid.h"
#include "laws/flux/per_axis_shift.h"
#include "laws/flux/same_row_col.h"
#include "laws/flux/text_identity.h"
#include "laws/rope/attention_translation_invariance.h"
#include "laws/rope/composition.h"
#include "laws/rope/identity_at_zero.h"
#include "laws/rope/norm_preservation.h"
#include "laws/rope/reference.h"
#include "laws/rope/rows.h"
#include "laws/rope/shift_invariance.h"
#include "blackbox/rope_model.h"
#include "blackbox/rope_rotated.h"
#include "blackbox/rope_scaled_laws.h"
#include "blackbox/structured_inputs.h"
#include "numerics/attention.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace pv::blackbox {
namespace {

/// One coordinate: 30 % small (0..64), 20 % structured (structured_position),
/// else anywhere in [0, P].
double coord(rng& g, long P) {
  const double u = g.uniform();
  if (u < 0.3) return double(g.range(0, std::min(64L, P)));
  if (u < 0.5) return structured_position(g, P);
  return double(g.range(0, P));
}

template <class T>
matrix<T> random_heads(rng& g, std::size_t n, std::size_t d) {
  return random_matrix<T>(g, n, d, std::pow(10.0, g.real(-1, 1)));
}

/// The speeds the kernel turns by, read from one probe per axis (identity
/// rows at position 1 on that axis); on a failed probe, the requested ones.
template <class T>
kernel_speeds measure_speeds(const check_run& cx, const rope_cfg& rc) {
  const std::size_t d = std::size_t(rc.c.head_dim), na = std::size_t(rc.c.n_axes);
  kernel_speeds ks;
  ks.w.assign(na, std::vector<double>(d, 0.0));
  ks.partner.resize(d);
  ladder_roundings(reference_layout(rc.c), rc.c, ks);
  std::vector<call> calls;
  for (std::size_t a = 0; a < na; ++a) {
    std::vector<double> e(na, 0.0);
    e[a] = 1;
    calls.push_back(rope_probe(rc, dtype_of<T>(), e));
  }
  // counting the laws (unit_plan::count_only) calls no kernel: the requested speeds
  const auto res = cx.units->count_only ? std::vector<result>{} : run_batch(cx.lib, calls, cx.ro);
  bool ok = !res.empty();
  for (const auto& r : res) ok = ok && r.st == status::ok;
  if (!ok) {
    const auto L = reference_layout(rc.c);
    for (const auto& p : L.pairs) {
      ks.w[p.axis][p.a] = ks.w[p.axis][p.b] = convert<double>(p.speed);
      ks.partner[p.a] = p.b;
      ks.partner[p.b] = p.a;
    }
    return ks;
  }
  ks.measured = true;
  std::vector<double> best(d, 0.0);
  for (std::size_t c = 0; c < d; ++c) ks.partner[c] = c;
  for (std::size_t a = 0; a < na; ++a) {
    auto M = probe_rows(res[a], dtype_of<T>(), d);
    for (std::size_t c = 0; c < d; ++c) {
      double off = 0;
      for (std::size_t j = 0; j < d; ++j)
        if (j != c) {
          off += M[c][j] * M[c][j];
          if (std::abs(M[c][j]) > best[c]) {
            best[c] = std::abs(M[c][j]);
            ks.partner[c] = j;
          }
        }
      ks.w[a][c] = std::atan2(std::sqrt(off), M[c][c]);
    }
  }
  return ks;
}

/// A lower bound of the sum of lower bounds (binary64 sums: 2^-50 covers their
/// roundings); -1 when one of them is not trusted (rope_tolerance_fast::lower).
double sum_below(std::initializer_list<double> terms) {
  double s = 0;
  for (double t : terms) {
    if (!(t >= 0)) return -1;
    s += t;
  }
  return s * (1 - 0x1p-50);
}

template <class T>
bool check_rows_vs_ref(law_run& Lr, int k, const rotated<T>& R, const std::string& what,
                       const std::function<std::string()>& desc) {
  for (std::size_t i = 0; i < R.y.rows; ++i)
    for (std::size_t c = 0; c < R.y.cols; ++c)
      if (!Lr.within_fast(
              k, R.error_above(i, c), rope_tolerance_fast::lower(R.tol_d(i, c)),
              [&] { return std::pair<hp, hp>(abs(convert<hp>(R.y(i, c)) - R.ref(i, c)), R.tol(i, c)); },
              [&] {
                return (what.empty() ? "" : what + " ") + "row " + std::to_string(i) + " component " +
                       std::to_string(c) + ": got " + to_decimal(R.y(i, c)) + ", reference " +
                       ref::to_decimal(R.ref(i, c), 20);
              },
              desc))
        return false;
  return true;
}

/// A law's id (from its header in src/laws/) and the id its cases are seeded
/// from: its own, or the one it had before a rename (the header's
/// check_case_stream), so that the cases stay the same.
struct law_name {
  std::string id, stream;
  law_name(const char* i) : id(i), stream(i) {}  // NOLINT: the usual case, one id
  law_name(const char* i, const char* s) : id(i), stream(s) {}
};

/// Runs a one-call-per-case law; `make` fills x and pos for case k, `check`
/// evaluates it.
template <class T, class Make, class Check>
law_result simple_law(const check_run& cx, const rope_cfg& rc, const law_name& id,
                      const std::string& law, const std::string& tol, const kernel_speeds* speeds,
                      Make make, Check check, bool diagnose = false,
                      std::function<std::string(std::size_t)> describe = {}) {
  law_run Lr(cx, id.id, type_name<T>(), rc.name, law, tol);
  Lr.seed_cases_from(id.stream);
  Lr.result_ref().diagnose = diagnose;
  if (!Lr.selected()) return Lr.finish();
  const auto L = reference_layout(rc.c);
  auto ks = Lr.case_indices();
  std::vector<matrix<T>> xs;
  std::vector<std::vector<double>> ps;
  draw_rope_cases<T>(Lr, ks, {&rc.c}, make, xs, ps);
  Lr.run();
  auto describe_case = [&](std::size_t i) { return describe ? describe(i) : describe_rows(rc, xs[i], ps[i]); };
  const rope_evaluator<T> evaluate(L, rc, rope_law_units<T>(cx), speeds);
  Lr.each_case(ks, 1, describe_case, [&](std::size_t i, const describer& desc) {
    auto R = evaluate(xs[i], ps[i], Lr.results()[i].out);
    return check(Lr, ks[i], xs[i], ps[i], R, desc);
  });
  return Lr.finish();
}

/// Relative-position laws: rows [q@m, k@n, q@m2, k@n2] with m - n = m2 - n2
/// (per axis); the exact dot products of the rotated pairs must agree.
template <class T, class Positions>
law_result relative_law(const check_run& cx, const rope_cfg& rc, const kernel_speeds& speeds,
                        const law_name& id, const std::string& law, Positions positions) {
  return simple_law<T>(
      cx, rc, id, law,
      "|q'(m).k'(n) - q'(m2).k'(n2)| <= sum over both dot products a.b of " + std::string(dot_within_rule()) +
      " (dots computed exactly in MPFR from the returned rows), "
      "with t the rotation tolerance: " + rotation_rule(), &speeds,
      [&](rng& g, int k, matrix<T>& x, std::vector<double>& pos) {
        const std::size_t d = std::size_t(rc.c.head_dim);
        auto q = random_heads<T>(g, 1, d), kk = random_heads<T>(g, 1, d);
        x = matrix<T>(4, d);
        for (std::size_t c = 0; c < d; ++c) {
          x(0, c) = x(2, c) = q(0, c);
          x(1, c) = x(3, c) = kk(0, c);
        }
        pos = positions(g, k);
      },
      [&](law_run& Lr, int k, const matrix<T>&, const std::vector<double>&, const rotated<T>& R,
          const std::function<std::string()>& desc) {
        // first look: the two dots in binary64 (rope_rotated.h); the difference three roundings
        const dot_look f1 = dot_within_fast(R, 0, 1), f2 = dot_within_fast(R, 2, 3);
        const double above = std::fabs((f2.hi - f1.hi) + (f2.lo - f1.lo)) * (1 + 0x1p-40) +
                             0x1p-51 * (std::fabs(f1.lo) + std::fabs(f2.lo)) + f1.err + f2.err;
        hp d1, b1, d2, b2;
        return Lr.within_fast(
            k, std::isfinite(above) ? above : INFINITY, sum_below({f1.bound_below, f2.bound_below}),
            [&] {
              dot_within(R, 0, 1, d1, b1);
              dot_within(R, 2, 3, d2, b2);
              const auto o = laws::shift_invariance::compare(d1, d2, b1, b2);
              return std::pair<hp, hp>(o.diff, o.bound);
            },
            [&] { return "q'(m).k'(n) = " + ref::to_decimal(d1, 20) + " vs q'(m2).k'(n2) = " + ref::to_decimal(d2, 20); },
            desc);
      });
}

template <class T>
law_result law_composition(const check_run& cx, const rope_cfg& rc, const kernel_speeds& speeds) {
  law_run Lr(cx, laws::composition::id, type_name<T>(), rc.name, laws::composition::statement(),
             "|R(b)(R(a)x) - R(a+b)x| <= 2 max(t_a) + t_b + t_{a+b} per pair (t_a of R(a)x, "
             "carried unchanged in norm by the rotation R(b)); " + rotation_rule());
  if (!Lr.selected()) return Lr.finish();
  const auto L = reference_layout(rc.c);
  const std::size_t na = std::size_t(rc.c.n_axes), d = std::size_t(rc.c.head_dim);
  const long P = position_limit(cx, rc);
  auto ks = Lr.case_indices();
  std::vector<matrix<T>> xs;
  std::vector<std::vector<double>> pa, pb, pab;
  for (int k : ks) {
    auto g = Lr.rng_for(k);
    const std::size_t n = std::size_t(g.range(1, 3));
    xs.push_back(random_heads<T>(g, n, d));
    std::vector<double> a(n * na), b(n * na), ab(n * na);
    for (std::size_t i = 0; i < n * na; ++i) {
      a[i] = coord(g, P / 2);
      b[i] = coord(g, P / 2);
      ab[i] = a[i] + b[i];
    }
    pa.push_back(a);
    pb.push_back(b);
    pab.push_back(ab);
    Lr.add(rope_call(rc.c, xs.back(), a));
  }
  Lr.run();
  const rope_evaluator<T> evaluate(L, rc, rope_law_units<T>(cx), &speeds);
  // second stage: R(b) on the returned R(a)x, and R(a+b) x
  std::vector<std::size_t> second(ks.size(), SIZE_MAX);
  std::vector<rotated<T>> first(ks.size());
  for (std::size_t i = 0; i < ks.size(); ++i) {
    if (Lr.results()[i].st != status::ok) continue;
    first[i] = evaluate(xs[i], pa[i], Lr.results()[i].out);
    second[i] = Lr.add(rope_call(rc.c, first[i].y, pb[i]));
    Lr.add(rope_call(rc.c, xs[i], pab[i]));
  }
  Lr.run();
  for (std::size_t i = 0; i < ks.size(); ++i) {
    auto desc = [&] {
      return describe_rows(rc, xs[i], pa[i]) + "\nthen b = " + positions_text(pb[i], na);
    };
    std::vector<std::size_t> idx{i};
    if (second[i] != SIZE_MAX) idx = {i, second[i], second[i] + 1};
    if (!Lr.calls_ok(ks[i], idx, desc)) {
      if (Lr.failed()) break;
      continue;
    }
    auto Rb = evaluate(first[i].y, pb[i], Lr.results()[second[i]].out);
    auto Rab = evaluate(xs[i], pab[i], Lr.results()[second[i] + 1].out);
    bool ok = true;
    for (std::size_t r = 0; r < xs[i].rows && ok; ++r)
      for (std::size_t c0 = 0; c0 < d; ++c0) {
        const std::size_t c1 = speeds.partner[c0];
        for (std::size_t c : {c0}) {
          const auto exact = [&] {
            const hp ta = hmax(first[i].tol(r, c0), first[i].tol(r, c1));
            return std::pair<hp, hp>(abs(convert<hp>(Rb.y(r, c)) - convert<hp>(Rab.y(r, c))),
                                     2 * ta + Rb.tol(r, c) + Rab.tol(r, c));
          };
          // binary64: the difference one rounding, the tolerance's four terms three sums
          const double above = std::fabs(double(Rb.y(r, c)) - double(Rab.y(r, c))) * (1 + 0x1p-40);
          const double ta0 = rope_tolerance_fast::lower(first[i].tol_d(r, c0)),
                       ta1 = rope_tolerance_fast::lower(first[i].tol_d(r, c1));
          const double below = sum_below({ta0 < 0 || ta1 < 0 ? -1.0 : 2 * std::max(ta0, ta1),
                                          rope_tolerance_fast::lower(Rb.tol_d(r, c)),
                                          rope_tolerance_fast::lower(Rab.tol_d(r, c))});
          ok = Lr.within_fast(ks[i], std::isfinite(above) ? above : INFINITY, below, exact,
                         [&] {
                           return "row " + std::to_string(r) + " component " + std::to_string(c) +
                                  ": R(b)R(a)x = " + to_decimal(Rb.y(r, c)) + ", R(a+b)x = " +
                                  to_decimal(Rab.y(r, c));
                         },
                         desc);
          if (!ok) break;
        }
        if (!ok) break;
      }
    if (!ok) break;
    Lr.case_done();
  }
  return Lr.finish();
}

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
    matrix<hp> outs[2], bounds[2];
    std::vector<bool> row_done(n, false);
    // in MPFR, row a of both sides, when the first look leaves one of its entries to judge
    const auto exact_row = [&](std::size_t a) {
      if (row_done[a]) return;
      row_done[a] = true;
      if (outs[0].rows == 0) {
        for (int side = 0; side < 2; ++side) outs[side] = bounds[side] = matrix<hp>(n, d);
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
            const hp v = convert<hp>(xs[i](b, c));
            o += p[b] * v;
            sv += p[b] * abs(v);
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

/// The grid a FLUX.1 image of 1024 x 1024 pixels gives (64 x 64 patches),
/// its text tokens at (0, 0, 0) ahead, every row against the reference. One
/// case: the grid is fixed, only the rows are random; 4,104 rows. Run by
/// --profile models; not when --max-position is below 63 (the grid's last
/// row and column).
template <class T>
law_result law_model_grid(const check_run& cx0, const rope_cfg& rc) {
  constexpr std::size_t H = 64, W = 64, text = 8;
  check_run cx = cx0;  // one case: the grid is the case
  cx.cases = 1;
  cx.min_cases = std::min(cx0.min_cases, 1);
  const std::size_t na = std::size_t(rc.c.n_axes), d = std::size_t(rc.c.head_dim);
  return simple_law<T>(
      cx, rc, {laws::model_grid::id, laws::model_grid::check_case_stream}, laws::model_grid::statement(),
      model_rule(), nullptr,
      [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
        x = random_heads<T>(g, text + H * W, d);
        pos = grid_positions(text, H, W, na);
      },
      [](law_run& Lr, int k, const matrix<T>&, const std::vector<double>&, const rotated<T>& R,
         const std::function<std::string()>& desc) { return check_rows_vs_ref(Lr, k, R, "grid row", desc); },
      true,
      [&](std::size_t) {  // the 4,104 rows are too large to print
        return "config " + rc.name + "\n" + std::to_string(text) + " text tokens at (0, 0, 0), then the " +
               std::to_string(H) + " x " + std::to_string(W) + " grid, row-major (inputs too large to "
               "print: the replay command regenerates them from seed " + std::to_string(cx.seed) + ")";
      });
}

/// rope.rows (laws/rope/rows.h): one case per batch size; row r of a case is
/// pair r mod D of its D distinct (row, position) pairs, and every returned
/// row is judged against its pair's reference. An entry is first compared in
/// binary64 (|y - ref| + 2^-52 |ref| <= tol / 2, ref and tol rounded to
/// binary64, so that it is inside tol exactly); the entries not clearly
/// inside, and the case's worst, are judged exactly (law_run::within).
template <class T>
law_result law_rows(const check_run& cx0, const rope_cfg& rc) {
  namespace law = laws::rope_rows;
  constexpr std::size_t D = law::distinct, S = std::size(law::sizes);
  check_run cx = cx0;  // one case per size
  cx.cases = int(S);
  cx.min_cases = std::min(cx0.min_cases, cx.cases);
  law_run Lr(cx, law::id, type_name<T>(), rc.name, law::statement(),
             pv_rope_config_version(&rc.c) >= 3 ? scaled_model_rule() : model_rule());
  if (!Lr.selected()) return Lr.finish();
  const std::size_t na = std::size_t(rc.c.n_axes), d = std::size_t(rc.c.head_dim);
  const long P = position_limit(cx, rc);
  const auto ks = Lr.case_indices();
  auto size_of = [&](std::size_t i) { return law::sizes[std::size_t(ks[i]) % S]; };
  std::vector<matrix<T>> xs;  // the distinct rows and positions of each case
  std::vector<std::vector<double>> ps;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    auto g = Lr.rng_for(ks[i]);
    xs.push_back(random_heads<T>(g, D, d));
    ps.emplace_back(D * na);
    for (auto& p : ps.back()) p = coord(g, P);
    const std::size_t n = size_of(i);
    std::vector<unsigned char> x(n * d * sizeof(T));  // the call's rows, written once (up to 4 MB)
    std::vector<double> pos(n * na);
    for (std::size_t r = 0; r < n; ++r) {
      std::memcpy(x.data() + r * d * sizeof(T), &xs[i].a[(r % D) * d], d * sizeof(T));
      for (std::size_t a = 0; a < na; ++a) pos[r * na + a] = ps[i][(r % D) * na + a];
    }
    Lr.add(rope_call<T>(rc.c, n, std::move(x), pos));
  }
  Lr.run();
  const auto L = reference_layout(rc.c);
  const rope_evaluator<T> evaluate(L, rc, rope_law_units<T>(cx));
  auto describe = [&](std::size_t i) {
    return "config " + rc.name + ", " + std::to_string(size_of(i)) + " rows, row r being pair r mod " +
           std::to_string(D) + " of\nx = " + to_string(xs[i]) + "\npositions = " + positions_text(ps[i], na);
  };
  Lr.each_case(ks, 1, describe, [&](std::size_t i, const describer& desc) {
    const std::size_t n = size_of(i);
    const rotated<T> R = evaluate(xs[i], ps[i], {});  // the pairs' reference and tolerances
    const std::vector<unsigned char>& out = Lr.results()[i].out;  // read in place, not copied
    const bool whole = out.size() == n * d * sizeof(T);
    auto y = [&](std::size_t r, std::size_t c) {
      T v{};
      if (whole) std::memcpy(&v, out.data() + (r * d + c) * sizeof(T), sizeof(T));
      return v;
    };
    // in binary64 (the fast reference's leading word, else MPFR's rounded; the tolerance in binary64)
    matrix<double> ref(D, d);
    const matrix<double>& tol = R.tol_d;
    for (std::size_t j = 0; j < D; ++j)
      for (std::size_t c = 0; c < d; ++c) ref(j, c) = R.fast ? R.ref_hi[j * d + c] : convert<double>(R.ref(j, c));
    auto judge = [&](std::size_t r, std::size_t c) {
      const std::size_t j = r % D;
      return Lr.within(
          ks[i], abs(convert<hp>(y(r, c)) - R.ref(j, c)), R.tol(j, c),
          [&] {
            return "row " + std::to_string(r) + " of " + std::to_string(n) + " (pair " + std::to_string(j) +
                   ") component " + std::to_string(c) + ": got " + to_decimal(y(r, c)) + ", reference " +
                   ref::to_decimal(R.ref(j, c), 20);
          },
          desc);
    };
    double worst = -1;
    std::size_t wr = 0, wc = 0;
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t c = 0; c < d; ++c) {
        const std::size_t j = r % D;
        const double e = std::abs(double(y(r, c)) - ref(j, c));
        if (!(e + 0x1p-52 * std::abs(ref(j, c)) <= 0.5 * tol(j, c))) {  // NaN and infinity included
          if (judge(r, c)) continue;
          Lr.diagnose(rows_outside(from_bytes<T>(out, n, d), ref, tol, D));
          return false;
        }
        if (e / tol(j, c) > worst) worst = e / tol(j, c), wr = r, wc = c;
      }
    return worst < 0 || judge(wr, wc);  // the worst entry, judged exactly
  });
  return Lr.finish();
}

template <class T>
void laws_for(const check_run& cx, const rope_cfg& rc, std::vector<law_result>& out) {
  const std::size_t na = std::size_t(rc.c.n_axes), d = std::size_t(rc.c.head_dim);
  const long P = position_limit(cx, rc);
  const bool flux = na > 1;
  const kernel_speeds speeds = measure_speeds<T>(cx, rc);  // for the rotation laws
  const bool tempered = rope_tempered(rc);  // YaRN: R(m) is a times a rotation (rope_scaled_laws.h)
  const rope_units units = rope_law_units<T>(cx);
  // agreement with the reference
  out.push_back(simple_law<T>(
      cx, rc, laws::rope_reference::id, laws::rope_reference::statement(),
      pv_rope_config_version(&rc.c) >= 3 ? scaled_model_rule() : model_rule(), nullptr,
      [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
        const std::size_t n = std::size_t(g.range(1, 4));
        x = random_heads<T>(g, n, d);
        pos.resize(n * na);
        for (auto& p : pos) p = coord(g, P);
      },
      [&](law_run& Lr, int k, const matrix<T>&, const std::vector<double>&, const rotated<T>& R,
          const std::function<std::string()>& desc) {
        return check_rows_vs_ref(Lr, k, R, "", desc);
      },
      /*diagnose=*/true));
  // every row of a large batch, across tile boundaries
  out.push_back(law_rows<T>(cx, rc));
  // identity at position 0 (FLUX: text tokens have ids (0, 0, 0))
  if (!tempered) out.push_back(simple_law<T>(
      cx, rc,
      flux ? law_name{laws::text_identity::id, laws::text_identity::check_case_stream}
           : law_name{laws::identity_at_zero::id},
      flux ? laws::text_identity::check_statement() : laws::identity_at_zero::statement(),
      "|R(0)x - x| <= (|x_c| + |x_c'|) e_rot + f per component, c' the component c turns into "
      "(measured) (cos 0 and sin 0, the rotation's products and sum): " + rotation_rounding_rule(),
      &speeds,
      [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
        const std::size_t n = std::size_t(g.range(1, 4));
        x = random_heads<T>(g, n, d);
        pos.assign(n * na, 0.0);
      },
      [&](law_run& Lr, int k, const matrix<T>& x, const std::vector<double>&, const rotated<T>& R,
          const std::function<std::string()>& desc) {
        for (std::size_t i = 0; i < x.rows; ++i)
          for (std::size_t c = 0; c < x.cols; ++c)
            if (!Lr.within_fast(k, std::fabs(double(R.y(i, c)) - double(x(i, c))) * (1 + 0x1p-40),
                                rope_tolerance_fast::lower(R.tol_d(i, c)),
                                [&] {
                                  return std::pair<hp, hp>(abs(convert<hp>(R.y(i, c)) - convert<hp>(x(i, c))),
                                                           R.tol(i, c));
                                },
                                [&] {
                                  return "row " + std::to_string(i) + " component " + std::to_string(c) +
                                         ": got " + to_decimal(R.y(i, c)) + ", input " + to_decimal(x(i, c));
                                },
                                desc))
              return false;
        return true;
      }));
  // norm preservation
  if (!tempered) out.push_back(simple_law<T>(
      cx, rc, laws::norm_preservation::id, laws::norm_preservation::statement(),
      "| |R(m)x| - |x| | <= sqrt(sum_c e_c^2), e_c = (|x_c| + |x_c'|) e_rot + f, c' the component c "
      "turns into (measured) (a rotation by any angle keeps the norm, so only cos/sin and the "
      "rotation's own roundings count, whatever the speeds): " + rotation_rounding_rule(),
      &speeds,
      [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
        const std::size_t n = std::size_t(g.range(1, 4));
        x = random_heads<T>(g, n, d);
        pos.resize(n * na);
        for (auto& p : pos) p = coord(g, P);
      },
      [&](law_run& Lr, int k, const matrix<T>& x, const std::vector<double>&, const rotated<T>& R,
          const std::function<std::string()>& desc) {
        const hp e_rot = rotation_rounding(units), floor = rotation_floor(units);
        for (std::size_t i = 0; i < x.rows; ++i) {
          hp n0 = 0, n1 = 0, e2 = 0;
          for (std::size_t c = 0; c < x.cols; ++c) {
            n0 += convert<hp>(x(i, c)) * convert<hp>(x(i, c));
            n1 += convert<hp>(R.y(i, c)) * convert<hp>(R.y(i, c));
            hp e = (abs(convert<hp>(x(i, c))) + abs(convert<hp>(x(i, speeds.partner[c])))) * e_rot + floor;
            e2 += e * e;
          }
          if (!Lr.within(k, abs(sqrt(n1) - sqrt(n0)), sqrt(e2),
                         "row " + std::to_string(i) + ": |R(m)x| = " + ref::to_decimal(sqrt(n1), 20) +
                             ", |x| = " + ref::to_decimal(sqrt(n0), 20),
                         desc))
            return false;
        }
        return true;
      }));
  // shift invariance of q.k (every axis shifted together)
  out.push_back(relative_law<T>(
      cx, rc, speeds, laws::shift_invariance::id,
      "q'(m).k'(n) depends only on m - n: shifting both positions by s (on every axis) changes "
      "nothing",
      [&](rng& g, int) {
        std::vector<double> pos(4 * na);
        for (std::size_t a = 0; a < na; ++a) {
          double m = coord(g, P / 2), n = coord(g, P / 2), s = coord(g, P / 2);
          const auto p = laws::shift_invariance::positions(m, n, s);
          for (std::size_t j = 0; j < 4; ++j) pos[j * na + a] = p[j];
        }
        return pos;
      }));
  if (!tempered) out.push_back(law_composition<T>(cx, rc, speeds));
  out.push_back(law_attention_translation<T>(cx, rc, speeds));
  if (!flux) return;
  out.push_back(relative_law<T>(
      cx, rc, speeds, {laws::per_axis_shift::id, laws::per_axis_shift::check_case_stream},
      laws::per_axis_shift::check_statement(),
      [&](rng& g, int k) {
        std::vector<double> pos(4 * na);
        const std::size_t ax = std::size_t(k) % na;
        for (std::size_t a = 0; a < na; ++a) {
          double m = coord(g, P / 2), n = coord(g, P / 2), s = a == ax ? coord(g, P / 2) : 0.0;
          pos[0 * na + a] = m;
          pos[1 * na + a] = n;
          pos[2 * na + a] = m + s;
          pos[3 * na + a] = n + s;
        }
        return pos;
      }));
  out.push_back(relative_law<T>(
      cx, rc, speeds, {laws::same_row_col::id, laws::same_row_col::check_case_stream},
      laws::same_row_col::check_statement(),
      [&](rng& g, int k) {
        std::vector<double> pos(4 * na, 0.0);
        // the last two axes are rows and columns (FLUX: (image, row, col))
        const std::size_t same = k % 2 ? na - 1 : na - 2, other = (na - 1) + (na - 2) - same;
        double r = coord(g, P), c1 = coord(g, P), c2 = coord(g, P), lo = std::min(c1, c2);
        pos[0 * na + same] = r;
        pos[1 * na + same] = r;
        pos[0 * na + other] = c1;
        pos[1 * na + other] = c2;
        pos[2 * na + other] = c1 - lo;
        pos[3 * na + other] = c2 - lo;
        return pos;
      }));
  out.push_back(simple_law<T>(
      cx, rc, {laws::nonsquare_grid::id, laws::nonsquare_grid::check_case_stream},
      laws::nonsquare_grid::statement(),
      model_rule(), nullptr,
      [&](rng& g, int, matrix<T>& x, std::vector<double>& pos) {
        std::size_t H = std::size_t(g.range(1, 12)), W = std::size_t(g.range(1, 12));
        if (H == W) W = H + 1 + std::size_t(g.range(0, 3));
        const std::size_t text = std::size_t(g.range(0, 3));  // text tokens ahead, as FLUX.1 orders them
        x = random_heads<T>(g, text + H * W, d);
        pos = grid_positions(text, H, W, na);
      },
      [&](law_run& Lr, int k, const matrix<T>&, const std::vector<double>&, const rotated<T>& R,
          const std::function<std::string()>& desc) {
        return check_rows_vs_ref(Lr, k, R, "grid patch", desc);
      },
      /*diagnose=*/true));
  // profile `models` (the model-size cases, like attention.shapes' FLUX head):
  // about 3 s per dtype; its rows and columns reach 63
  if (cx.profile == "models" && P >= 63) out.push_back(law_model_grid<T>(cx, rc));
}


/// Advice is verified before it is given: a diagnosis saying that the kernel
/// reads dynamic NTK's length from the positions (diagnose_scaled.cpp) is
/// followed by every law of the configuration run again as if the kernel
/// declared so (the same seed and cases, every case, nothing printed); the
/// declaration is advised only when none of them fails.
std::string recheck_length_from_positions(const check_run& cx, const rope_cfg& rc) {
  check_run c = recheck_of(cx);
  c.lib.rope_caps |= PV_ROPE_LENGTH_FROM_POSITIONS;
  std::vector<law_result> rs;
  laws_for<float>(c, rc, rs);
  if (!c.float_only) laws_for<double>(c, rc, rs);
  rope_scaled_laws(c, rc, rs);
  for (const auto& r : rs)
    if (r.verdict == verdict::failed)
      return "; rechecked every law of " + rc.name + " as if it declared so: " + r.id +
             " still fails, so no declaration is advised";
  return "; rechecked every law of " + rc.name + " as if it declared so: none fails. If the kernel is meant to "
         "compute so, declare PV_ROPE_LENGTH_FROM_POSITIONS in rope_caps (a Python kernel: \"length_from_positions\" "
         "in Kernel.rope_caps)";
}

}  // namespace

std::vector<law_result> rope_laws(const check_run& cx, json& sweep, json& diagnosis) {
  std::vector<law_result> out;
  sweep = json::array();
  diagnosis = json::array();
  for (const auto& rc : rope_configs_of(cx)) {
    check_run gcx = cx;  // one unit: the configuration's laws, sweep and diagnosis (posverify/shard.h)
    gcx.group = cx.units->take();
    // a configuration of another shard is skipped; counting enumerates its laws (none runs)
    if (!cx.units->mine(gcx.group) && !cx.units->count_only) continue;
    std::size_t before = out.size();
    laws_for<float>(gcx, rc, out);
    if (!cx.float_only) laws_for<double>(gcx, rc, out);
    rope_scaled_laws(gcx, rc, out);
    bool diagnose = false, any_ran = false;
    for (std::size_t i = before; i < out.size(); ++i) {
      if (out[i].verdict == verdict::passed || out[i].verdict == verdict::failed) any_ran = true;
      if (out[i].diagnose && out[i].verdict == verdict::failed) diagnose = true;
    }
    if (cx.only_case < 0 && any_ran && cx.wire == PV_F32) {  // 16-bit runs: the laws only
      if (cx.only_law.empty()) {  // multi-axis: the same position on every axis
        sweep.push(sweep_for<float>(cx, rc));
        sweep.push(sweep_for<double>(cx, rc));
        cx.units->sweep_units.insert(cx.units->sweep_units.end(), 2, gcx.group);
      }
      if (diagnose) {
        json dg = diagnose_rope(cx, rc);
        if (const json* a = dg.find("advice"); a && a->as_string() == "length_from_positions")
          dg.set("message", json::string(dg.find("message")->as_string() + recheck_length_from_positions(cx, rc)));
        diagnosis.push(dg);
        cx.units->diagnosis_units.push_back(gcx.group);
        if (const json* m = dg.find("message"))
          for (std::size_t i = before; i < out.size(); ++i)
            if (out[i].verdict == verdict::failed && out[i].diagnose)
              out[i].extra.set("diagnosis", *m);
      }
    }
    cx.units->finished();
  }
  return out;
}

// the RoPE laws, their sweep and diagnoses (laws.h)
const law_group_registrar rope_laws_group(op::rope, 0, rope_laws);

// the probe of declines.h: every configuration of the run, two rows at
// positions 0 and 1 on every axis
const probe_registrar rope_declines_probe(op::rope, [](const check_run& cx, pv_dtype t) {
  return in_dtype(t, [&](auto zero) {
    std::vector<call> v;
    for (const auto& rc : rope_configs_of(cx)) {
      const std::size_t na = std::size_t(rc.c.n_axes);
      std::vector<double> pos(2 * na, 0.0);
      for (std::size_t a = 0; a < na; ++a) pos[na + a] = 1;
      v.push_back(rope_call(rc.c, probe_matrix<decltype(zero)>(2, std::size_t(rc.c.head_dim)), pos));
    }
    return v;
  });
});

}  // namespace pv::blackbox
