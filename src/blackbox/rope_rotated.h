// Rotated rows against the reference RoPE with per-component tolerances, shared
// by the RoPE laws (rope_laws.cpp) and the position sweep (rope_sweep.cpp).
#pragma once

#include "blackbox/law_run.h"
#include "blackbox/rope_model.h"
#include "blackbox/rope_tolerance_fast.h"
#include "numerics/fast_rope.h"
#include "core/json.h"

#include <cmath>
#include <exception>
#include <vector>

namespace pv::blackbox {

template <class T>
class rope_evaluator;

/// Rotated rows, their reference, and their per-component tolerances.
///
/// Two looks at an entry. The first is binary64: the fast tier's reference
/// (reference/fast, double-word with a certified bound, made only for the
/// laws that compare with the reference) and the tolerance in binary64
/// (rope_tolerance_fast.h). It decides nothing by itself: it only shows which
/// entries are clearly inside their tolerance and clearly neither the law's
/// worst ratio nor its largest error (law_run::within_fast), which the exact
/// judgement would not record either. Every other entry is judged in MPFR as
/// before: ref() and tol() compute the MPFR reference and tolerance of a row
/// when one of its entries is first asked for. So a law's verdict, worst case
/// and counterexample are the ones an all-MPFR evaluation gives.
template <class T>
struct rotated {
  matrix<T> y;
  matrix<double> tol_d;  ///< the tolerance in binary64 (rope_tolerance_fast.h)
  bool fast = false;     ///< ref_hi, ref_lo and ref_err are there
  std::vector<double> ref_hi, ref_lo, ref_err;  ///< |MPFR reference - (hi + lo)| <= err, entry by entry

  /// The MPFR reference and tolerance of entry (i, c), row i computed when first asked for.
  const hp& ref(std::size_t i, std::size_t c) const { return exact_row(i, ref_rows, true)[c]; }
  const hp& tol(std::size_t i, std::size_t c) const { return exact_row(i, tol_rows, false)[c]; }
  const hp* tol_row(std::size_t i) const { return exact_row(i, tol_rows, false).data(); }

  /// An upper bound of |y(i, c) - ref(i, c)| as MPFR computes it, from the
  /// fast reference (+infinity without one, or for a non-finite y).
  double error_above(std::size_t i, std::size_t c) const {
    if (!fast) return INFINITY;
    const std::size_t e = i * y.cols + c;
    // b = (y - hi) - lo: two roundings, |b - (y - hi - lo)| <= u (|y - hi - lo| + |lo|) + u |b| (1 + u)
    const double b = std::fabs((double(y(i, c)) - ref_hi[e]) - ref_lo[e]);
    if (b == 0 && ref_lo[e] == 0 && ref_err[e] == 0) return 0;  // exactly the reference (pass-through)
    const double above = (b + std::fabs(ref_lo[e]) * 0x1p-52 + ref_err[e]) * (1 + 0x1p-40) + 0x1p-1000;
    return std::isfinite(above) ? above : INFINITY;
  }

  // what the MPFR rows are computed from
  const rope_evaluator<T>* ev = nullptr;
  matrix<T> x;
  std::vector<double> pos;
  mutable std::vector<std::vector<hp>> ref_rows, tol_rows;  ///< empty until asked for

 private:
  const std::vector<hp>& exact_row(std::size_t i, std::vector<std::vector<hp>>& rows, bool reference) const;
};

/// Makes the rotated rows of a law: its layout, configuration, units and (for
/// the rotation laws) the kernel's measured speeds are fixed, so the binary64
/// tolerance's constants are computed once, here.
template <class T>
class rope_evaluator {
 public:
  /// L, rc and ks must outlive the evaluator and the rows it makes.
  rope_evaluator(const rope_layout<hp>& L, const rope_cfg& rc, const rope_units& u, const kernel_speeds* ks = nullptr)
      : L_(L), rc_(rc), u_(u), ks_(ks), tol_(L, rc.c, u, ks), pairs_(fast::pairs_of(L)) {
    for (const auto& p : pairs_) speeds_.push_back(convert<double>(p.speed));
  }

  /// Rotated rows: the kernel's output `out` (rows of x), with the fast
  /// reference when the law compares with the reference (no measured speeds).
  rotated<T> operator()(const matrix<T>& x, const std::vector<double>& pos,
                        const std::vector<unsigned char>& out) const {
    rotated<T> r;
    r.y = from_bytes<T>(out, x.rows, x.cols);
    r.ev = this;
    r.x = x;
    r.pos = pos;
    r.ref_rows.resize(x.rows);
    r.tol_rows.resize(x.rows);
    const std::size_t na = std::size_t(rc_.c.n_axes);
    r.tol_d = matrix<double>(x.rows, x.cols);
    for (std::size_t i = 0; i < x.rows; ++i) tol_.row(pos.data() + i * na, x.row(i), r.tol_d.row(i));
    if (!ks_) fast_reference(r);
    return r;
  }

  /// The MPFR reference of row i of r (rope_rotate at the reference precision).
  void exact_reference(const rotated<T>& r, std::size_t i, std::vector<hp>& row) const {
    row.resize(r.x.cols);
    for (std::size_t j = 0; j < r.x.cols; ++j) row[j] = convert<hp>(r.x(i, j));
    rope_rotate(L_, r.pos.data() + i * std::size_t(rc_.c.n_axes), row.data());
  }

  /// The MPFR tolerance of row i of r (rope_model.h).
  std::vector<hp> exact_tolerance(const rotated<T>& r, std::size_t i) const {
    const double* p = r.pos.data() + i * std::size_t(rc_.c.n_axes);
    return ks_ ? rotation_tolerance<T>(*ks_, p, r.x.row(i), u_) : component_tolerance<T>(L_, rc_.c, p, r.x.row(i), u_);
  }

 private:
  /// The fast tier's reference and, per entry, its distance from the MPFR
  /// one: the fast tier's certified bound (exact rotation by the MPFR speeds)
  /// plus MPFR's own roundings at p bits: the angle m w (|m| w 2^-p), cos
  /// and sin (2^-p each) and the rotation (3 roundings), all within
  /// (|x_a| + |x_b|)(|m| w + 8) 2^(1-p), times the scale a. Outside the fast
  /// tier's range (angles of 2^21 and more, inputs near overflow or in the
  /// subnormals) there is no fast reference and every entry is judged in MPFR.
  void fast_reference(rotated<T>& r) const {
    const std::size_t n = r.x.rows, d = r.x.cols, na = std::size_t(rc_.c.n_axes);
    std::vector<double> xd(n * d);
    for (std::size_t e = 0; e < xd.size(); ++e) {
      xd[e] = double(r.x.a[e]);
      if (!(std::fabs(xd[e]) <= 0x1p900) || (xd[e] != 0 && std::fabs(xd[e]) < 0x1p-900)) return;
    }
    fast::result f;
    try {
      f = fast::rope_scaled(xd.data(), r.pos.data(), n, d, na, pairs_, L_.scale, 1);
    } catch (const std::exception&) {
      return;
    }
    const double mp = std::ldexp(1.0, 1 - int(ref::precision_bits())), a = std::fabs(convert<double>(L_.scale)) * (1 + 0x1p-40);
    r.ref_hi.resize(n * d);
    r.ref_lo.resize(n * d);
    r.ref_err.assign(f.bound.begin(), f.bound.end());
    for (std::size_t e = 0; e < n * d; ++e) r.ref_hi[e] = f.value[e].hi, r.ref_lo[e] = f.value[e].lo;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < pairs_.size(); ++k) {
        const auto& p = pairs_[k];
        const double ang = std::fabs(r.pos[i * na + p.axis]) * speeds_[k] * (1 + 0x1p-40);
        const double e = a * (std::fabs(xd[i * d + p.a]) + std::fabs(xd[i * d + p.b])) * (ang + 8) * mp * (1 + 0x1p-40);
        r.ref_err[i * d + p.a] += e;
        r.ref_err[i * d + p.b] += e;
      }
    r.fast = true;
  }

  const rope_layout<hp>& L_;
  const rope_cfg& rc_;
  rope_units u_;
  const kernel_speeds* ks_;
  rope_tolerance_fast tol_;
  std::vector<fast::rope_pair> pairs_;
  std::vector<double> speeds_;  ///< the pairs' speeds rounded to binary64 (fast_reference's MPFR term)
};

template <class T>
const std::vector<hp>& rotated<T>::exact_row(std::size_t i, std::vector<std::vector<hp>>& rows, bool reference) const {
  auto& row = rows[i];
  if (row.empty()) {
    if (reference) ev->exact_reference(*this, i, row);
    else row = ev->exact_tolerance(*this, i);
  }
  return row;
}

/// The exact dot of rows i and j of y (in hp, no rounding) and the bound of its
/// distance from the exact dot of the rows they stand for, every component c of
/// row i within ti[c] (row j: tj[c]) of its exact value. With a* = a + e,
/// b* = b + f: |a.b - a*.b*| = |sum_c b_c e_c + (a_c + e_c) f_c|
///   <= sum_c |b_c| ti_c + (|a_c| + ti_c) tj_c.
/// Not dot_error_bound (error_bounds.h): the dot is taken exactly, so no gamma_d.
/// The one body of every RoPE law that compares dot products of returned rows
/// (rope_laws.cpp, rope_scaled_laws.cpp).
template <class T>
void dot_within(const matrix<T>& y, std::size_t i, std::size_t j, const hp* ti, const hp* tj,
                hp& dot, hp& bound) {
  dot = bound = 0;
  for (std::size_t c = 0; c < y.cols; ++c) {
    const hp a = convert<hp>(y(i, c)), b = convert<hp>(y(j, c));
    dot += a * b;
    bound += abs(b) * ti[c] + (abs(a) + ti[c]) * tj[c];
  }
}

/// The rule of dot_within, as the laws print it.
inline const char* dot_within_rule() { return "sum_c |b_c| t_a,c + (|a_c| + t_a,c) t_b,c"; }

/// dot_within on the rows of R with their own tolerances.
template <class T>
void dot_within(const rotated<T>& R, std::size_t i, std::size_t j, hp& dot, hp& bound) {
  dot_within(R.y, i, j, R.tol_row(i), R.tol_row(j), dot, bound);
}

/// dot_within's first look (binary64): the dot of rows i and j of R.y as an
/// unevaluated sum hi + lo (Ogita, Rump and Oishi's Dot2: products split
/// exactly by TwoProd, sums by TwoSum), `err` its distance from the dot MPFR
/// computes, and `bound_below` a lower bound of dot_within's bound (-1: none).
struct dot_look {
  double hi = 0, lo = 0, err = INFINITY, bound_below = -1;
  double mag = 0;  ///< sum_c |a_c b_c| (each product rounded once)
};

/// The error: Dot2 is within gamma_n^2 sum |a_c b_c| of the exact dot before
/// its last rounding (ORO 2005, Proposition 5.5; n <= 2^10 gives 2^-86, taken
/// as 2^-80), MPFR's own dot within (n + 1) 2^(1-p) sum |a_c b_c|, and products
/// below 2^-969 lose TwoProd's exactness (2^-1000 each). The bound: its terms
/// from the binary64 tolerances' lower bounds, summed in binary64 (3n
/// roundings, each relative u, against MPFR's 3n of 2^-p: 2^-40 covers both
/// for n <= 256 and p >= 64).
template <class T>
dot_look dot_within_fast(const rotated<T>& R, std::size_t i, std::size_t j) {
  dot_look f;
  const std::size_t n = R.y.cols;
  double s = 0, c = 0, mag = 0, bound = 0;
  bool bounded = n <= 256;
  for (std::size_t k = 0; k < n; ++k) {
    const double a = double(R.y(i, k)), b = double(R.y(j, k));
    double p, e, q;
    fast::two_prod(a, b, p, e);
    fast::two_sum(s, p, s, q);
    c += q + e;
    mag += std::fabs(p);
    const double ti = rope_tolerance_fast::lower(R.tol_d(i, k)), tj = rope_tolerance_fast::lower(R.tol_d(j, k));
    if (ti < 0 || tj < 0) bounded = false;
    bound += std::fabs(b) * ti + (std::fabs(a) + ti) * tj;
  }
  f.hi = s;
  f.lo = c;
  f.mag = mag;
  const double p = std::ldexp(1.0, 1 - int(ref::precision_bits()));
  f.err = (mag * (1 + 0x1p-40)) * (0x1p-80 + double(n + 1) * p) + double(n) * 0x1p-1000;
  if (!std::isfinite(f.err) || !std::isfinite(s) || !std::isfinite(c)) f.err = INFINITY;
  f.bound_below = bounded && std::isfinite(bound) ? bound * (1 - 0x1p-40) : -1;
  return f;
}

/// Sweep (rope_sweep.cpp): the error of positions 2^j and 2^j + 1 (j = 0 .. 20)
/// against the model's tolerance there and at --max-position.
template <class T>
json sweep_for(const check_run& cx, const rope_cfg& rc);

}  // namespace pv::blackbox
