// Worked example: rotated positions keep only the difference. q = k = (1, 0)
// in two dimensions; RoPE at 30 degrees per position against the additive
// sinusoid p(m) = (sin m, cos m).
#include "claims/common.h"
#include "claims/worked_example_printed.h"

namespace {

using namespace pv;
using namespace pv::claims;

/// <R(m) q, R(n) k>, one pair turning by `deg` degrees per position (rope_dot, mpfr).
hp rope_2d_dot(const hp& deg, const hp* q, const hp* k, double m, double n) {
  auto L = rope_with_speeds<hp>({radians(deg)}, pairing::adjacent);
  return rope_dot(L, q, &m, k, &n);
}

/// Derived error of rope_2d_dot in mpfr against the exact <R(m) q, R(n) k>
/// with the same stored speed (rope_dot_error_bound, error_bounds.h).
hp rope_2d_error(const hp& deg, const hp* q, const hp* k, double m, double n) {
  auto L = rope_with_speeds<hp>({radians(deg)}, pairing::adjacent);
  return rope_dot_error_bound(L, q, &m, k, &n);
}

/// <R(m) q, R(n) k> for q = k = (1, 0), the chapter's vectors.
hp rope_unit_dot(const hp& deg, double m, double n) {
  const hp e[2] = {hp(1), hp(0)};
  return rope_2d_dot(deg, e, e, m, n);
}

/// A second pair with both components non-zero: with q = k = (1, 0) a RoPE
/// whose sine has the wrong sign still gives cos((n - m) w) (the error term
/// -2 q_a q_b sin((m + n) w) vanishes), so the chapter's vectors alone cannot
/// see that bug; these can.
const hp* generic_q() {
  static const hp q[2] = {hp(3) / 5, hp(4) / 5};
  return q;
}
const hp* generic_k() {
  static const hp k[2] = {hp(-7) / 25, hp(24) / 25};
  return k;
}

/// (q + p(m)) . (k + p(n)) for q = k = (1, 0) and the chapter's 2-d sinusoid.
hp additive_unit_dot(double m, double n) {
  auto P = sinusoid<hp>({m, n}, 2, hp(10000));  // d = 2: the one speed is base^0 = 1 rad
  return (1 + P(0, 0)) * (1 + P(1, 0)) + P(0, 1) * P(1, 1);
}

PV_CLAIM("rope.example-30deg", [](const claim_context&) {
  auto r = make("rope.example-30deg",
                "q = k = (1, 0), one pair turning 30 degrees (pi/6, mpfr) per position: "
                "rope_dot at (2, 5), (7, 10), (3, 4); each compared with the chapter's printed "
                "rounding at its digits, and the zeros also against their derived rounding bound "
                "(rope_dot_error_bound plus 3 |d w| for the stored speed); and a second pair "
                "q = (3/5, 4/5), k = (-7/25, 24/25) at (2, 5) and (7, 10), whose dots must agree within the sum of their "
                "derived rounding bounds (the exact values are equal: distance 3 both)");
  const hp deg = 30;
  hp d25 = rope_unit_dot(deg, 2, 5), d710 = rope_unit_dot(deg, 7, 10), d34 = rope_unit_dot(deg, 3, 4);
  r.values.set("dot_2_5", dec(d25));
  r.values.set("dot_7_10", dec(d710));
  r.values.set("dot_3_4", dec(d34));
  const auto& P = printed_numbers::rope_example_30deg;
  r.printed.set("dot_2_5", json::string(P.dot_2_5));
  r.printed.set("dot_7_10", json::string(P.dot_7_10));
  r.printed.set("dot_3_4", json::string(P.dot_3_4));
  const hp g25 = rope_2d_dot(deg, generic_q(), generic_k(), 2, 5);
  const hp g710 = rope_2d_dot(deg, generic_q(), generic_k(), 7, 10);
  const hp generic_gap = abs(g25 - g710);
  const hp generic_tol = rope_2d_error(deg, generic_q(), generic_k(), 2, 5) +
                         rope_2d_error(deg, generic_q(), generic_k(), 7, 10);
  r.values.set("generic_dot_2_5", dec(g25));
  r.values.set("generic_dot_7_10", dec(g710));
  r.values.set("generic_abs_diff", dec(generic_gap));
  r.values.set("generic_bound", dec(generic_tol));
  printed_check pc;
  pc.compare(d25, P.dot_2_5, "dot_2_5");
  pc.compare(d710, P.dot_7_10, "dot_7_10");
  pc.compare(d34, P.dot_3_4, "dot_3_4");
  const bool ok = pc.all_agree();
  // "0" is meant exactly (90 degrees apart). Derived: the rounding of
  // rope_dot against the exact dot with the stored speed w~ (rope_dot_error_
  // bound), plus the stored speed's own error: w~ = radians(30) rounds pi, a
  // product and a quotient (gamma_3 relative), and the dot cos(3 w) is
  // 3-Lipschitz in w.
  const hp e[2] = {hp(1), hp(0)};
  const hp speed_err = 3 * radians(deg) * gamma_hp<hp>(3);
  const hp zero_tol_25 = rope_2d_error(deg, e, e, 2, 5) + speed_err;
  const hp zero_tol_710 = rope_2d_error(deg, e, e, 7, 10) + speed_err;
  r.extra.set("zero_bounds", json::array().push(dec(zero_tol_25)).push(dec(zero_tol_710)));
  bool exact_zeros = abs(d25) <= zero_tol_25 && abs(d710) <= zero_tol_710;
  const bool generic_ok = generic_gap <= generic_tol;
  r.checked += " (" + pc.summary() + ")";
  if (ok && exact_zeros && generic_ok) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = pc.summary() +
                      (exact_zeros ? "" : "; the 90-degree dots are not zero within their bounds") +
                      (generic_ok ? "" : "; with q = (3/5, 4/5), k = (-7/25, 24/25) the dots at (2, 5) "
                                         "and (7, 10) differ by " + fig(generic_gap) +
                                         " > bound " + fig(generic_tol));
  }
  return r;
});

PV_CLAIM("additive.example", [](const claim_context&) {
  auto r = make("additive.example",
                "q = k = (1, 0) plus the 2-d sinusoid p(m) = (sin m, cos m) (1 rad per "
                "position): (q + p(2)).(k + p(5)) and (q + p(7)).(k + p(10)) in mpfr, compared "
                "with the chapter's printed values at 3 decimals");
  hp d25 = additive_unit_dot(2, 5), d710 = additive_unit_dot(7, 10);
  r.values.set("dot_2_5", dec(d25));
  r.values.set("dot_7_10", dec(d710));
  const auto& P = printed_numbers::additive_example;
  r.printed.set("dot_2_5", json::string(P.dot_2_5));
  r.printed.set("dot_7_10", json::string(P.dot_7_10));
  printed_check pc;
  pc.compare(d25, P.dot_2_5, "dot_2_5");
  pc.compare(d710, P.dot_7_10, "dot_7_10");
  const bool ok = pc.all_agree();
  // The two dots must differ by more than their rounding: each is a few
  // correctly rounded operations on terms below 2 (about 8 u); 16 u is
  // declared slack over that estimate.
  bool differ = abs(d25 - d710) > ref_tolerance(r, "differ", 16, tol_kind::declared_slack,
                                                 "the two dots each carry about 8 u (sin, cos, "
                                                 "three products and sums on terms below 2); 16 u "
                                                 "is a margin over that estimate");
  r.checked += " (" + pc.summary() + ")";
  if (ok && differ) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = pc.summary() + (differ ? "" : "; the two dots do not differ");
  }
  return r;
});

PV_CLAIM("rope.distance-only", [](const claim_context&) {
  auto r = make("rope.distance-only",
                "q = k = (1, 0), and the second pair q = (3/5, 4/5), k = (-7/25, 24/25); for "
                "distances 1, 2, 3, 5 and starts m = 0 .. 20: the spread (max - min over m) of "
                "the dot at (m, m + distance), with RoPE at 30 degrees per position (both "
                "pairs) and with the additive 2-d sinusoid, in mpfr; rotation must stay within "
                "twice the largest derived rounding bound of one dot (rope_dot_error_bound; "
                "the exact values at one distance are equal), addition must not");
  hp rope_spread = 0, add_spread = 0, generic_spread = 0, worst_err = 0;
  const hp e[2] = {hp(1), hp(0)};
  for (double dist : {1.0, 2.0, 3.0, 5.0}) {
    hp rmin = 10, rmax = -10, amin = 10, amax = -10, gmin = 10, gmax = -10;
    for (int m = 0; m <= 20; ++m) {
      hp rd = rope_unit_dot(hp(30), m, m + dist), ad = additive_unit_dot(m, m + dist);
      hp gd = rope_2d_dot(hp(30), generic_q(), generic_k(), m, m + dist);
      worst_err = std::max({worst_err, rope_2d_error(hp(30), e, e, m, m + dist),
                            rope_2d_error(hp(30), generic_q(), generic_k(), m, m + dist)});
      rmin = std::min(rmin, rd);
      rmax = std::max(rmax, rd);
      amin = std::min(amin, ad);
      amax = std::max(amax, ad);
      gmin = std::min(gmin, gd);
      gmax = std::max(gmax, gd);
    }
    rope_spread = std::max(rope_spread, hp(rmax - rmin));
    add_spread = std::max(add_spread, hp(amax - amin));
    generic_spread = std::max(generic_spread, hp(gmax - gmin));
  }
  const hp tol = 2 * worst_err;
  r.values.set("spread_bound", dec(tol));
  r.values.set("rope_max_spread", dec(rope_spread));
  r.values.set("rope_max_spread_generic_q_k", dec(generic_spread));
  r.values.set("additive_max_spread", dec(add_spread));
  if (generic_spread > tol) {
    r.result = verdict::fails;
    r.qualification = "with q = (3/5, 4/5), k = (-7/25, 24/25) the rotated dot depends on where "
                      "the pair sits: spread " + fig(generic_spread);
  } else if (rope_spread <= tol && add_spread > tol) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = "rotation spread " + fig(rope_spread) + ", addition spread " +
                      fig(add_spread) + " (derived bound " + fig(tol) + ")";
  }
  return r;
});

PV_CLAIM("rope.multi-frequency", [](const claim_context&) {
  auto r = make("rope.multi-frequency",
                "theta 10000, d = 128: the 64 speeds theta^(-2i/d) (geometric_speeds, mpfr); "
                "wavelengths of the fastest and slowest pair, the angle each turns between "
                "neighbours, and the largest distance the slowest pair still tells apart from "
                "its mirror (half a wavelength)");
  auto w = geometric_speeds<hp>(128, hp(10000));
  const hp two_pi = 2 * ref::pi();
  hp fastest = two_pi / w.front(), slowest = two_pi / w.back();
  hp fast_deg = w.front() * 180 / ref::pi(), slow_deg = w.back() * 180 / ref::pi();
  r.values.set("fastest_wavelength", dec(fastest));
  r.values.set("slowest_wavelength", dec(slowest));
  r.values.set("fastest_neighbour_angle_deg", dec(fast_deg));
  r.values.set("slowest_neighbour_angle_deg", dec(slow_deg));
  hp unaliased = floor(slowest / 2);
  r.values.set("slowest_unaliased_distance",
               json::integer(unaliased.convert_to<std::int64_t>()));
  // Fast: neighbours at least 10 degrees apart in the fastest pair; slow: the
  // slowest pair needs more than 1000 positions per turn.
  bool fast_separates = fast_deg >= 10 && fast_deg <= 180;
  bool slow_far = slowest > 1000;
  if (fast_separates && slow_far) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = "fastest pair turns " + fig(fast_deg) + " degrees per position, slowest "
                      "wavelength " + fig(slowest) + " positions";
  }
  return r;
});

}  // namespace
