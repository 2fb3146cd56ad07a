// The RoPE laws that relate the kernel's outputs to each other rather than to
// the reference: the relative-position laws (the dot product of a rotated
// query and key depends only on their offset: rope.shift_invariance, and
// FLUX.1's flux.per_axis_shift and flux.same_row_col) and rope.composition
// (R(b) R(a) = R(a + b)). Ids and statements come from their headers in
// src/laws/rope/ and src/laws/flux/; the tolerance is the rotation rule
// (blackbox/rope_model.h).
#include "blackbox/rope_law_kit.h"
#include "laws/flux/per_axis_shift.h"
#include "laws/flux/same_row_col.h"
#include "laws/rope/composition.h"
#include "laws/rope/shift_invariance.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace pv::blackbox::rope_kit {
namespace {

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

}  // namespace

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


/// Shift invariance of q.k, every axis shifted together.
template <class T>
law_result law_shift_invariance(const check_run& cx, const rope_cfg& rc, const kernel_speeds& speeds) {
  const std::size_t na = std::size_t(rc.c.n_axes);
  const long P = position_limit(cx, rc);
  return relative_law<T>(
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
      });
}

/// One axis shifted at a time (FLUX.1's image, row and column).
template <class T>
law_result law_per_axis_shift(const check_run& cx, const rope_cfg& rc, const kernel_speeds& speeds) {
  const std::size_t na = std::size_t(rc.c.n_axes);
  const long P = position_limit(cx, rc);
  return relative_law<T>(
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
      });
}

/// Two tokens of the same row (or column) at columns c1, c2 and at c1 - lo, c2 - lo.
template <class T>
law_result law_same_row_col(const check_run& cx, const rope_cfg& rc, const kernel_speeds& speeds) {
  const std::size_t na = std::size_t(rc.c.n_axes);
  const long P = position_limit(cx, rc);
  return relative_law<T>(
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
      });
}

#define PV_ROPE_RELATION_LAWS(T)                                                                            \
  template law_result law_composition<T>(const check_run&, const rope_cfg&, const kernel_speeds&);      \
  template law_result law_shift_invariance<T>(const check_run&, const rope_cfg&, const kernel_speeds&); \
  template law_result law_per_axis_shift<T>(const check_run&, const rope_cfg&, const kernel_speeds&);   \
  template law_result law_same_row_col<T>(const check_run&, const rope_cfg&, const kernel_speeds&);
PV_ROPE_RELATION_LAWS(float)
PV_ROPE_RELATION_LAWS(double)
#undef PV_ROPE_RELATION_LAWS

}  // namespace pv::blackbox::rope_kit
