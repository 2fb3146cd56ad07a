// Worked example: rotated positions keep only the difference. q = k = (1, 0)
// in two dimensions; RoPE at 30 degrees per position against the additive
// sinusoid p(m) = (sin m, cos m).
#include "claims/common.h"

namespace {

using namespace pv;
using namespace pv::claims;

/// <R(m) q, R(n) k> for q = k = (1, 0), one pair turning by `deg` degrees per position.
hp rope_unit_dot(const hp& deg, double m, double n) {
  auto L = rope_with_speeds<hp>({radians(deg)}, pairing::adjacent);
  const hp e[2] = {hp(1), hp(0)};
  return rope_dot(L, e, &m, e, &n);
}

/// (q + p(m)) . (k + p(n)) for q = k = (1, 0) and the chapter's 2-d sinusoid.
hp additive_unit_dot(double m, double n) {
  auto P = sinusoid<hp>({m, n}, 2, hp(10000));  // d = 2: the one speed is base^0 = 1 rad
  return (1 + P(0, 0)) * (1 + P(1, 0)) + P(0, 1) * P(1, 1);
}

PV_CLAIM("rope.example-30deg", [](const context&) {
  auto r = make("rope.example-30deg",
                "q = k = (1, 0), one pair turning 30 degrees (pi/6, mpfr) per position: "
                "rope_dot at (2, 5), (7, 10), (3, 4); each compared with the chapter's printed "
                "rounding at its digits, and the zeros also against 16 u (cos of a right angle "
                "at the reference's precision)");
  const hp deg = 30;
  hp d25 = rope_unit_dot(deg, 2, 5), d710 = rope_unit_dot(deg, 7, 10), d34 = rope_unit_dot(deg, 3, 4);
  r.values.set("dot_2_5", dec(d25));
  r.values.set("dot_7_10", dec(d710));
  r.values.set("dot_3_4", dec(d34));
  r.printed.set("dot_2_5", json::string("0"));
  r.printed.set("dot_7_10", json::string("0"));
  r.printed.set("dot_3_4", json::string("0.866"));
  printed_check pc;
  pc.compare(d25, "0", "dot_2_5");
  pc.compare(d710, "0", "dot_7_10");
  pc.compare(d34, "0.866", "dot_3_4");
  const bool ok = pc.all_agree();
  // "0" is meant exactly (90 degrees apart): the angle 3 pi/6 rounds by a few
  // u, so |cos| stays below 16 u.
  const hp zero_tol = 16 * ref::unit_roundoff();
  bool exact_zeros = abs(d25) <= zero_tol && abs(d710) <= zero_tol;
  r.checked += " (" + pc.summary() + ")";
  if (ok && exact_zeros) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = pc.summary() + (exact_zeros ? "" : "; the 90-degree dots are not zero to 16 u");
  }
  return r;
});

PV_CLAIM("additive.example", [](const context&) {
  auto r = make("additive.example",
                "q = k = (1, 0) plus the 2-d sinusoid p(m) = (sin m, cos m) (1 rad per "
                "position): (q + p(2)).(k + p(5)) and (q + p(7)).(k + p(10)) in mpfr, compared "
                "with the chapter's printed values at 3 decimals");
  hp d25 = additive_unit_dot(2, 5), d710 = additive_unit_dot(7, 10);
  r.values.set("dot_2_5", dec(d25));
  r.values.set("dot_7_10", dec(d710));
  r.printed.set("dot_2_5", json::string("-0.040"));
  r.printed.set("dot_7_10", json::string("0.123"));
  printed_check pc;
  pc.compare(d25, "-0.040", "dot_2_5");
  pc.compare(d710, "0.123", "dot_7_10");
  const bool ok = pc.all_agree();
  bool differ = abs(d25 - d710) > 16 * ref::unit_roundoff();
  r.checked += " (" + pc.summary() + ")";
  if (ok && differ) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = pc.summary() + (differ ? "" : "; the two dots do not differ");
  }
  return r;
});

PV_CLAIM("rope.distance-only", [](const context&) {
  auto r = make("rope.distance-only",
                "q = k = (1, 0); for distances 1, 2, 3, 5 and starts m = 0 .. 20: the spread "
                "(max - min over m) of the dot at (m, m + distance), with RoPE at 30 degrees per "
                "position and with the additive 2-d sinusoid, in mpfr; rotation must stay within "
                "64 u, addition must not");
  hp rope_spread = 0, add_spread = 0;
  for (double dist : {1.0, 2.0, 3.0, 5.0}) {
    hp rmin = 10, rmax = -10, amin = 10, amax = -10;
    for (int m = 0; m <= 20; ++m) {
      hp rd = rope_unit_dot(hp(30), m, m + dist), ad = additive_unit_dot(m, m + dist);
      rmin = std::min(rmin, rd);
      rmax = std::max(rmax, rd);
      amin = std::min(amin, ad);
      amax = std::max(amax, ad);
    }
    rope_spread = std::max(rope_spread, hp(rmax - rmin));
    add_spread = std::max(add_spread, hp(amax - amin));
  }
  const hp tol = 64 * ref::unit_roundoff();
  r.values.set("rope_max_spread", dec(rope_spread));
  r.values.set("additive_max_spread", dec(add_spread));
  if (rope_spread <= tol && add_spread > tol) {
    r.result = verdict::holds;
  } else {
    r.result = verdict::fails;
    r.qualification = "rotation spread " + fig(rope_spread) + ", addition spread " +
                      fig(add_spread) + " (tolerance 64 u = " + fig(tol) + ")";
  }
  return r;
});

PV_CLAIM("rope.multi-frequency", [](const context&) {
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
