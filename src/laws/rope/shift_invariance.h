// rope.shift_invariance (CLAIMS.md, core laws; the chapter's "rope.relative"),
// written once: <R(m) q, R(n) k> depends on m - n only, so shifting both
// positions by the same s leaves the rotated dot product unchanged.
//
// The parts every judge shares: the statement, the case's positions
// (m, n, m + s, n + s), the law body compare() (the difference of the two dot
// products against the sum of their bounds: each is within its own bound of
// its exact value, and the exact values are equal), and evaluate_rope() for an
// implementation whose error bound we know (rope_dot_error_bound).
// Judges: the property (src/properties/rope/shift_invariance.cpp), the error-
// budget row (src/budgets/budgets.cpp) and the black-box check
// (src/blackbox/rope_laws.cpp, which bounds the kernel's returned rows instead,
// and compares its other relative-position laws, flux.per_axis_shift and
// flux.same_row_col, with the same compare()). The multi-axis form is
// flux.per_axis_shift (laws/flux/per_axis_shift.h), whose body is this one.
#pragma once

#include "numerics/error_bounds.h"
#include "numerics/rope.h"

#include <array>
#include <string>

namespace pv::laws::shift_invariance {

inline constexpr const char* id = "rope.shift_invariance";

inline std::string statement() { return "<R(m) q, R(n) k> = <R(m+s) q, R(n+s) k>"; }

/// The positions of a case on one axis: (m, n) and both shifted by s.
inline std::array<double, 4> positions(double m, double n, double s) { return {m, n, m + s, n + s}; }

/// The outcome of one case: both dot products, their difference and the
/// tolerance (the sum of the two dot products' bounds).
template <class T>
struct outcome {
  T base{}, shifted{};
  hp diff = 0, bound = 0, bound_base = 0, bound_shifted = 0;
  bool within = true;
};

/// The law body: `base` = <R(m)q, R(n)k> and `shifted` = <R(m+s)q, R(n+s)k>,
/// each with its bound against its own exact value.
template <class T>
outcome<T> compare(const T& base, const T& shifted, const hp& bound_base, const hp& bound_shifted) {
  outcome<T> o;
  o.base = base;
  o.shifted = shifted;
  o.bound_base = bound_base;
  o.bound_shifted = bound_shifted;
  o.diff = abs(convert<hp>(shifted) - convert<hp>(base));
  o.bound = bound_base + bound_shifted;
  o.within = o.diff <= o.bound;
  return o;
}

/// evaluate(case, implementation) for pv::rope_dot in T on a layout of N axes
/// (N = 1: the chapter's RoPE; N = 3: FLUX.1's image/row/column), positions m
/// and n and the per-axis shift s, with rope_dot_error_bound as the tolerance
/// of each side.
template <class T, std::size_t N>
outcome<T> evaluate_rope(const rope_layout<T>& L, const T* q, const T* k, const std::array<double, N>& m,
                         const std::array<double, N>& n, const std::array<double, N>& s) {
  std::array<double, N> ms, ns;
  for (std::size_t a = 0; a < N; ++a) ms[a] = m[a] + s[a], ns[a] = n[a] + s[a];
  return compare(rope_dot(L, q, m.data(), k, n.data()), rope_dot(L, q, ms.data(), k, ns.data()),
                 rope_dot_error_bound(L, q, m.data(), k, n.data()),
                 rope_dot_error_bound(L, q, ms.data(), k, ns.data()));
}

/// One axis: the case (m, n, m + s, n + s) of positions().
template <class T>
outcome<T> evaluate_rope(const rope_layout<T>& L, const T* q, const T* k, double m, double n,
                         double s) {
  return evaluate_rope<T, 1>(L, q, k, {m}, {n}, {s});
}

}  // namespace pv::laws::shift_invariance
