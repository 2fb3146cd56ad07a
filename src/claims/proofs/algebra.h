// Exact algebra for the rotation laws of the chapter ("History: from adding
// to rotating", "FLUX.1: pictures rotate along two directions"): RoPE's
// shift invariance, relative form, norm preservation and composition, the
// FLUX three-group decomposition and the sinusoid's linear shift map,
// checked with no rounding at all: on exact instances, then for all angles.
//
// Exact numbers: GMP rationals, and the field Q(sqrt 3) that holds cos and
//    sin of every multiple of 30 degrees (also used by the exhaustive
//    30-degree proof, claims/proofs/exhaustive.h).
//
// Instances: rotations whose cosine and sine are rational (Pythagorean
//    triples: (3/5, 4/5), (5/13, 12/13), ...). cos/sin of m times a base
//    angle come from Chebyshev recurrences,
//      T_{m+1} = 2c T_m - T_{m-1},  sin(m w) = s U_{m-1}(c),
//    not from repeated rotation, so composition is a real check. Every law
//    must hold with difference exactly 0.
//
// All angles (the grid argument): a law of rotations is a polynomial
//    identity in (cos, sin) of each angle. With t = tan(theta/2),
//      cos = (1 - t^2)/(1 + t^2),  sin = 2t/(1 + t^2),
//    so the law LHS - RHS is a rational function N(t, x) / prod_v (1 + t_v^2)^e_v
//    whose denominator never vanishes. `tracked` carries, next to the exact
//    value at a point, an upper bound on the degree of N in every variable
//    and the exponents e_v, by the formal rules
//      product:  n = n1 + n2,  e = e1 + e2;
//      sum:      e = max(e1, e2),  n_v = max(n1_v + 2(e_v - e1_v), n2_v + 2(e_v - e2_v)).
//    A polynomial of degree <= D_v in each variable v that vanishes on a grid
//    S_1 x ... x S_V with |S_v| = D_v + 1 distinct values is the zero
//    polynomial (induction on the number of variables: a one-variable
//    polynomial of degree <= D with D + 1 roots is 0). So checking LHS == RHS
//    exactly on that grid proves the law for every t, i.e. every angle in
//    (-pi, pi), and theta = pi by continuity of both sides.
//
// algebra.cpp attaches both to rope.relative, flux.separate-offsets and
// sinusoid.linear-shift as extra["proof"]["exact_algebra"].
#pragma once

#include "core/json.h"

#include <boost/multiprecision/gmp.hpp>

#include <functional>
#include <string>
#include <vector>

namespace pv::proofs {

// ---- exact numbers ---------------------------------------------------------

/// GMP rationals without expression templates (plain values, simple code).
using rational = boost::multiprecision::number<boost::multiprecision::gmp_rational,
                                              boost::multiprecision::et_off>;

/// a + b sqrt(3) with rational a, b; equality is exact (sqrt 3 is
/// irrational, so a + b sqrt 3 = 0 iff a = b = 0).
struct qsqrt3 {
  rational a = 0, b = 0;
  friend qsqrt3 operator+(const qsqrt3& x, const qsqrt3& y) { return {x.a + y.a, x.b + y.b}; }
  friend qsqrt3 operator-(const qsqrt3& x, const qsqrt3& y) { return {x.a - y.a, x.b - y.b}; }
  friend qsqrt3 operator-(const qsqrt3& x) { return {-x.a, -x.b}; }
  /// (a + b r)(c + d r) = (ac + 3bd) + (ad + bc) r, r = sqrt 3.
  friend qsqrt3 operator*(const qsqrt3& x, const qsqrt3& y) {
    return {x.a * y.a + 3 * x.b * y.b, x.a * y.b + x.b * y.a};
  }
  friend bool operator==(const qsqrt3& x, const qsqrt3& y) { return x.a == y.a && x.b == y.b; }
  std::string str() const { return a.str() + " + " + b.str() + "*sqrt(3)"; }
};

// ---- instances: Pythagorean rotations ----------------------------------------

/// One law checked on exact instances.
struct exact_law_result {
  std::string name;
  long instances = 0;
  bool exact_zero = true;        ///< every difference exactly 0
  std::string counterexample;    ///< the first non-zero difference
};

/// Shift invariance, composition, norm preservation (1-D RoPE, 4 Pythagorean
/// pairs), the FLUX three-group decomposition (groups [2, 4, 4]) and the
/// sinusoid linear shift map. `flip_sine` plants the fault of
/// pv::fault::rope_sine_sign (x'_1 = x1 c - x0 s) in the RoPE rotation.
std::vector<exact_law_result> pythagorean_laws(bool flip_sine = false);

/// [{"law", "instances", "difference_exactly_zero", "verdict", "counterexample"?}].
json to_json(const std::vector<exact_law_result>& rs);

// ---- all angles: the grid argument -------------------------------------------

/// An exact rational value with degree bookkeeping of its numerator.
struct tracked {
  rational value = 0;
  std::vector<int> n;  ///< degree bound of the numerator in each variable
  std::vector<int> e;  ///< exponent of (1 + t_v^2) in the denominator

  /// A constant: degree 0 in every variable.
  static tracked constant(std::size_t vars, const rational& v);
  /// A plain variable (a vector component): degree 1.
  static tracked variable(std::size_t vars, std::size_t v, const rational& value);
  /// cos and sin of the angle whose half-angle tangent is variable v.
  static tracked cos_of(std::size_t vars, std::size_t v, const rational& t);
  static tracked sin_of(std::size_t vars, std::size_t v, const rational& t);

  friend tracked operator+(const tracked& a, const tracked& b);
  friend tracked operator-(const tracked& a, const tracked& b);
  friend tracked operator-(const tracked& a);
  friend tracked operator*(const tracked& a, const tracked& b);
};

/// The variables of a law: names, and whether each is a half-angle tangent.
struct law_variables {
  std::vector<std::string> names;
  std::vector<bool> is_angle;
};

/// Values of the variables at one grid point, as tracked leaves: for an
/// angle variable, (cos, sin); for a plain variable, x (cos field) only.
struct law_point {
  std::vector<tracked> x;      ///< plain variables (and t for angles)
  std::vector<tracked> c, s;   ///< cos/sin for angle variables
};

/// A law: returns LHS - RHS at the point.
using law_fn = std::function<tracked(const law_point&)>;

/// The outcome of the grid argument for one law.
struct algebraic_result {
  std::string name;
  std::vector<std::string> vars;
  std::vector<int> degree;     ///< D_v per variable (numerator of LHS - RHS)
  long points = 0;             ///< grid points checked, prod (D_v + 1)
  bool holds = false;          ///< exactly 0 at every grid point
  bool too_large = false;      ///< the grid exceeded the budget: not checked
  std::string counterexample;  ///< the first grid point with LHS != RHS
};

/// Proves (or refutes) a law by the grid argument. Grid values per variable:
/// 0, 1, -1, 2, -2, ... (D_v + 1 of them). Refuses grids over `max_points`.
algebraic_result prove_identity(const std::string& name, const law_variables& vars,
                                const law_fn& law, long max_points = 2000000);

/// {"law", "degree_bound", "grid", "grid_points", "verdict", "counterexample"?}.
json to_json(const algebraic_result& r);

/// The RoPE / sinusoid laws proved for all angles (see algebra.cpp):
/// shift invariance, relative form, norm preservation, composition and the
/// sinusoid shift map in position form (Chebyshev, m, n in [0, box)), and
/// the FLUX three-group decomposition (q, k over the basis pairs).
std::vector<algebraic_result> rope_algebraic_laws(long box = 6);
/// <R(a) q, R(a + d) k> = sum_g <q_g, R(d_g) k_g> over the three FLUX groups.
algebraic_result flux_decomposition_law();
/// p((m + k) w) = M_k p(m w), p = (sin, cos), for all m, k in [0, box).
std::vector<algebraic_result> sinusoid_shift_laws(long box = 6);

/// The planted false law: shift invariance with the sign of the sine of the
/// extra rotation flipped on the key's second component.
algebraic_result planted_false_shift_law();

}  // namespace pv::proofs
