// Rotated rows against the reference RoPE with per-component tolerances, shared
// by the RoPE laws (rope_laws.cpp) and the position sweep (rope_sweep.cpp).
#pragma once

#include "blackbox/law_run.h"
#include "blackbox/rope_model.h"
#include "core/json.h"

namespace pv::blackbox {

/// Rotated rows, their reference, and their per-component tolerances.
template <class T>
struct rotated {
  matrix<T> y;
  matrix<hp> ref;
  matrix<hp> tol;
};

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

/// Rotated rows, their reference (the requested configuration), and the
/// per-component tolerances: of `reference` (the requested model), or of the
/// rotation laws when the kernel's own speeds are given.
template <class T>
rotated<T> evaluate(const rope_layout<hp>& L, const rope_cfg& rc, const matrix<T>& x,
                    const std::vector<double>& pos, const std::vector<unsigned char>& out,
                    const rope_units& u, const kernel_speeds* ks = nullptr) {
  rotated<T> r;
  r.y = from_bytes<T>(out, x.rows, x.cols);
  r.ref = matrix<hp>(x.rows, x.cols);
  r.tol = matrix<hp>(x.rows, x.cols);
  const std::size_t na = std::size_t(rc.c.n_axes);
  for (std::size_t i = 0; i < x.rows; ++i) {
    for (std::size_t j = 0; j < x.cols; ++j) r.ref(i, j) = convert<hp>(x(i, j));
    rope_rotate(L, pos.data() + i * na, r.ref.row(i));
    auto t = ks ? rotation_tolerance<T>(*ks, pos.data() + i * na, x.row(i), u)
                : component_tolerance<T>(L, rc.c, pos.data() + i * na, x.row(i), u);
    for (std::size_t j = 0; j < x.cols; ++j) r.tol(i, j) = t[j];
  }
  return r;
}

/// dot_within on the rows of R with their own tolerances.
template <class T>
void dot_within(const rotated<T>& R, std::size_t i, std::size_t j, hp& dot, hp& bound) {
  dot_within(R.y, i, j, R.tol.row(i), R.tol.row(j), dot, bound);
}

/// Sweep (rope_sweep.cpp): the error of positions 2^j and 2^j + 1 (j = 0 .. 20)
/// against the model's tolerance there and at --max-position.
template <class T>
json sweep_for(const check_run& cx, const rope_cfg& rc);

}  // namespace pv::blackbox
