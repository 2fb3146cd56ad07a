#include "budgets/budgets.h"

#include "laws/attention/permutation_equivariance.h"
#include "laws/flux/per_axis_shift.h"
#include "laws/rope/shift_invariance.h"
#include "laws/sinusoid/linear_shift.h"
#include "numerics/ulps.h"
#include "numerics/error_bounds.h"
#include "core/files.h"
#include "core/seeded.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace pv::budgets {

namespace {

/// Case generator: splitmix64 of (seed, law tag, index); `case_rng(seed,
/// tag, i)` regenerates case i of a law exactly.
struct case_rng : seeded {
  case_rng(std::uint64_t seed, std::uint64_t tag, std::uint64_t index)
      : seeded(seed * 0x9e3779b97f4a7c15ULL ^ (tag << 48) ^ index) {}
  /// k / 2^19 * 2^e, k in [-2^20, 2^20], e in [-3, 1]: exact in float.
  double entry(int e) {
    const auto k = static_cast<std::int64_t>(next() % ((1u << 21) + 1)) - (1 << 20);
    return std::ldexp(static_cast<double>(k), -19 + e);
  }
};

/// One ulp of T at the magnitude of the exact value y (the spacing of T
/// there; for |y| below the smallest normal, the subnormal spacing).
template <class T>
hp ulp_at(const hp& y) {
  const int p = std::numeric_limits<T>::digits;
  const int emin = std::numeric_limits<T>::min_exponent;  // 2^(emin-1) = min normal
  int e = emin;
  if (y != 0) {
    long ex = 0;
    frexp(y, &ex);  // y = f 2^ex, f in [1/2, 1)
    e = std::max<int>(static_cast<int>(ex), emin);
  }
  return ldexp(hp(1), e - p);
}

budget_row make_row(std::string law, std::string bound, std::string impl) {
  budget_row r;
  r.law = std::move(law);
  r.bound = std::move(bound);
  r.impl = std::move(impl);
  return r;
}

struct accum {
  budget_row row;
  double sum_u2 = 0, sum_r2 = 0;
  void add(double ulps, const hp& diff, const hp& bound, double scale, std::uint64_t index,
           const std::string& input) {
    ++row.entries;
    sum_u2 += ulps * ulps;
    if (ulps > row.max_ulps) row.max_ulps = ulps;
    const hp b = bound * hp(scale);
    const double ratio = b > 0 ? static_cast<double>(diff / b) : (diff > 0 ? INFINITY : 0.0);
    sum_r2 += ratio * ratio;
    if (ratio > row.max_ratio || row.worst_input.empty()) {
      if (ratio > row.max_ratio) row.max_ratio = ratio;
      if (row.worst_input.empty() || ratio == row.max_ratio) {
        row.worst_case = index;
        row.worst_input = input;
      }
    }
    if (!(diff <= b)) row.within_bound = false;
  }
  budget_row finish(std::uint64_t cases) {
    row.cases = cases;
    if (row.entries) {
      row.rms_ulps = std::sqrt(sum_u2 / static_cast<double>(row.entries));
      row.rms_ratio = std::sqrt(sum_r2 / static_cast<double>(row.entries));
    }
    return row;
  }
};

matrix<double> random_tokens(case_rng& g, std::size_t n, std::size_t d) {
  const int e = static_cast<int>(g.in(0, 4)) - 3;
  matrix<double> X(n, d);
  for (auto& x : X.a) x = g.entry(e);
  return X;
}

template <class T>
std::string impl_name(reduction r) {
  return type_name<T>() + " " + to_string(r);
}

template <class T>
void attention_laws(std::uint64_t seed, std::uint64_t first, std::uint64_t cases, double scale,
                    reduction red, std::vector<budget_row>& out) {
  accum fwd, perm;
  fwd.row = make_row("attention forward error |y~ - y|", "attention_forward_bound", impl_name<T>(red));
  perm.row = make_row(std::string(laws::permutation_equivariance::id) + " |A(PX) - P A(X)|", "attention_reorder_bound",
              impl_name<T>(red));
  attention_options<T> o;
  o.sum = red;
  for (std::uint64_t i = first; i < first + cases; ++i) {
    case_rng g(seed, 1, i);
    const std::size_t n = g.in(2, 8), d = g.in(2, 8);
    const auto X0 = random_tokens(g, n, d);
    const permutation perm_v = laws::permutation_equivariance::draw_order(g, n);
    const std::string input = "X = " + to_string(X0) + ", P = " + to_string(perm_v);
    const auto X = convert_matrix<T>(X0);
    const auto Y = attention(X, X, X, o);
    const auto Xh = convert_matrix<hp>(X);
    const auto Yh = attention(Xh, Xh, Xh, attention_options<hp>{});
    const auto B = attention_forward_bound(X, X, X, {}, {}, {}, o);
    for (std::size_t k = 0; k < Y.a.size(); ++k) {
      const hp diff = abs(convert<hp>(Y.a[k]) - Yh.a[k]);
      fwd.add(static_cast<double>(diff / ulp_at<T>(Yh.a[k])), diff, B.a[k], scale, i, input);
    }
    const auto PX = permute_rows(X, perm_v);
    namespace law = laws::permutation_equivariance;
    const auto R = law::reorder_tolerance(PX, projections<T>{}, o);
    law::compare(
        Y, attention(PX, PX, PX, o), perm_v, [&](std::size_t r, std::size_t c) { return R(r, c); },
        [&](const law::entry<T>& e) {
          perm.add(static_cast<double>(ulp_distance(e.permuted, e.original)), e.diff, e.bound, scale,
                   i, input);
          return true;
        });
  }
  out.push_back(fwd.finish(cases));
  out.push_back(perm.finish(cases));
}

template <class T>
void rope_laws(std::uint64_t seed, std::uint64_t first, std::uint64_t cases, double scale,
               std::vector<budget_row>& out) {
  accum fwd, shift;
  const std::string impl = type_name<T>() + " sequential";
  fwd.row = make_row("rope_dot forward error |<R(m)q, R(n)k>~ - exact|", "rope_dot_error_bound", impl);
  shift.row = make_row(std::string(laws::shift_invariance::id) + " |dot(m+s, n+s) - dot(m, n)|",
               "rope_dot_error_bound(m+s, n+s) + rope_dot_error_bound(m, n)", impl);
  for (std::uint64_t i = first; i < first + cases; ++i) {
    case_rng g(seed, 2, i);
    const std::size_t d = 2 * g.in(1, 8);
    const auto L = rope_ladder<T>(d, T(10000), pairing::adjacent);
    rope_layout<hp> Lh = {L.head_dim, L.n_axes, {}};
    for (const auto& p : L.pairs) Lh.pairs.push_back({p.a, p.b, p.axis, convert<hp>(p.speed)});
    const auto qk = random_tokens(g, 2, d);
    const double m = static_cast<double>(g.in(0, 4095)), n = static_cast<double>(g.in(0, 4095)),
                 s = static_cast<double>(g.in(0, 4095));
    char buf[96];
    std::snprintf(buf, sizeof buf, ", d = %zu, m = %.0f, n = %.0f, s = %.0f, theta = 10000", d, m, n, s);
    const std::string input = "q, k = " + to_string(qk) + buf;
    const auto q = convert_matrix<T>(qk);
    const auto qh = convert_matrix<hp>(q);
    const auto o = laws::shift_invariance::evaluate_rope(L, q.row(0), q.row(1), m, n, s);
    const hp exact = rope_dot(Lh, qh.row(0), &m, qh.row(1), &n);
    const hp diff = abs(convert<hp>(o.base) - exact);
    fwd.add(static_cast<double>(diff / ulp_at<T>(exact)), diff, o.bound_base, scale, i, input);
    shift.add(static_cast<double>(ulp_distance(o.shifted, o.base)), o.diff, o.bound, scale, i, input);
  }
  out.push_back(fwd.finish(cases));
  out.push_back(shift.finish(cases));
}

template <class T>
void sinusoid_law(std::uint64_t seed, std::uint64_t first, std::uint64_t cases, double scale,
                  std::vector<budget_row>& out) {
  namespace law = laws::linear_shift;
  accum acc;
  acc.row = make_row(std::string(law::id) + " |p(m + k) - M_k p(m)|", "sinusoid_shift_bound",
             type_name<T>() + " sequential");
  for (std::uint64_t i = first; i < first + cases; ++i) {
    case_rng g(seed, 3, i);
    const std::size_t d = 2 * g.in(1, 32);
    const auto w = geometric_speeds<T>(d, T(10000));
    const double m = static_cast<double>(g.in(0, 8191)), k = static_cast<double>(g.in(0, 8191));
    char buf[96];
    std::snprintf(buf, sizeof buf, "d = %zu, base 10000, m = %.0f, k = %.0f", d, m, k);
    law::evaluate(w, m, k, [&](const law::entry<T>& e) {
      acc.add(static_cast<double>(ulp_distance(e.mapped, e.shifted)), e.diff, e.bound, scale, i, buf);
      return true;
    });
  }
  out.push_back(acc.finish(cases));
}

template <class T>
void flux_law(std::uint64_t seed, std::uint64_t first, std::uint64_t cases, double scale,
              std::vector<budget_row>& out) {
  namespace law = laws::per_axis_shift;
  accum acc;
  acc.row = make_row("flux.separate-offsets |dot(p + s e_axis, p' + s e_axis) - dot(p, p')|",
             "rope_dot_error_bound (FLUX layout [16, 56, 56]) at both position pairs",
             type_name<T>() + " sequential");
  const auto L = rope_flux<T>();
  for (std::uint64_t i = first; i < first + cases; ++i) {
    case_rng g(seed, 4, i);
    const auto qk = random_tokens(g, 2, L.head_dim);
    const std::size_t axis = g.in(1, 2);
    const std::array<double, 3> p = {0, double(g.in(0, 63)), double(g.in(0, 63))};
    const std::array<double, 3> pp = {0, double(g.in(0, 63)), double(g.in(0, 63))};
    const double s = double(g.in(0, 63));
    std::array<double, 3> shift = {0, 0, 0};
    shift[axis] = s;
    char buf[160];
    std::snprintf(buf, sizeof buf, ", p = (0, %.0f, %.0f), p' = (0, %.0f, %.0f), shift %.0f along axis %zu",
                  p[1], p[2], pp[1], pp[2], s, axis);
    const std::string input = "q, k = " + to_string(qk) + buf;
    const auto q = convert_matrix<T>(qk);
    const auto o = law::evaluate_rope(L, q.row(0), q.row(1), p, pp, shift);
    acc.add(static_cast<double>(ulp_distance(o.shifted, o.base)), o.diff, o.bound, scale, i, input);
  }
  out.push_back(acc.finish(cases));
}

}  // namespace

std::vector<budget_row> run_budgets(std::uint64_t seed, std::uint64_t cases, double bound_scale,
                                    std::uint64_t first_case, const std::function<void()>& step) {
  std::vector<budget_row> rows;
  const auto done = [&] { if (step) step(); };
  for (auto red : {reduction::sequential, reduction::correctly_rounded}) {
    attention_laws<double>(seed, first_case, cases, bound_scale, red, rows), done();
    attention_laws<float>(seed, first_case, cases, bound_scale, red, rows), done();
  }
  rope_laws<double>(seed, first_case, cases, bound_scale, rows), done();
  rope_laws<float>(seed, first_case, cases, bound_scale, rows), done();
  flux_law<double>(seed, first_case, cases, bound_scale, rows), done();
  flux_law<float>(seed, first_case, cases, bound_scale, rows), done();
  sinusoid_law<double>(seed, first_case, cases, bound_scale, rows), done();
  sinusoid_law<float>(seed, first_case, cases, bound_scale, rows), done();
  return rows;
}

}  // namespace pv::budgets
