// Problem 4: two friends on a carousel. Exact integer degrees mod 360, and
// the same angles through RoPE in mpfr (atan2 of the rotated (1, 0)).
#include "claims/carousel_printed.h"
#include "claims/collision_search.h"
#include "claims/common.h"

namespace {

using namespace pv;
using namespace pv::claims;

std::int64_t mod360(std::int64_t x) { return ((x % 360) + 360) % 360; }

/// The seat of (1, 0) after rotating `steps` positions of `deg_per_step`
/// degrees from `start_deg`, read back in degrees in [0, 360) (mpfr).
hp seat_deg(std::int64_t start_deg, std::int64_t deg_per_step, double steps) {
  auto L = rope_with_speeds<hp>({radians(hp(deg_per_step))}, pairing::adjacent);
  hp x[2] = {cos(radians(hp(start_deg))), sin(radians(hp(start_deg)))};
  rope_rotate(L, &steps, x);
  hp a = atan2(x[1], x[0]) * 180 / ref::pi();
  if (a < 0) a += 360;
  return a;
}

/// Rounding allowance of seat_deg in degrees, recorded in the claim: about ten
/// correctly rounded operations (cos and sin of the start, radians(), the
/// angle product, the rotation's products and sums, atan2, the conversion to
/// degrees), each off by at most u times a magnitude below 2 pi rad: under
/// 20 pi u rad = 3600 u degrees. 360 * 64 u = 23040 u degrees is declared
/// slack over that count.
hp seat_tolerance(claim_result& r) {
  return ref_tolerance(r, "seat_deg", 360 * 64, tol_kind::declared_slack,
                       "about 10 roundings of at most u * 2 pi rad each give under 3600 u "
                       "degrees; 23040 u degrees leaves a margin of about 6 over that count");
}

/// |hp angle - integer angle| on the circle, in degrees.
hp deg_gap(const hp& a, std::int64_t b) {
  hp d = fmod(abs(a - hp(b)), hp(360));
  return d > 180 ? hp(360 - d) : d;
}

PV_CLAIM("carousel.a", [](const claim_context&) {
  auto r = make("carousel.a",
                "30 degrees a minute, A at 40, B at 100, 3 minutes: integer degrees mod 360, and "
                "the seats through a RoPE rotation in mpfr, within 360 * 64 u degrees of the integers (a "
                "few roundings in cos, sin, the rotation and atan2, scaled to degrees)");
  const std::int64_t speed = 30, a0 = 40, b0 = 100, t = 3;
  std::int64_t a = mod360(a0 + speed * t), b = mod360(b0 + speed * t);
  std::int64_t gap = mod360(b - a), gap0 = mod360(b0 - a0);
  hp ah = seat_deg(a0, speed, t), bh = seat_deg(b0, speed, t);
  r.values.set("a_deg", json::integer(a));
  r.values.set("b_deg", json::integer(b));
  r.values.set("gap_deg", json::integer(gap));
  r.values.set("start_gap_deg", json::integer(gap0));
  r.values.set("a_deg_hp", dec(ah));
  r.values.set("b_deg_hp", dec(bh));
  const auto& P = printed_numbers::carousel_a;
  r.printed.set("a_deg", json::string(std::to_string(P.a_deg)));
  r.printed.set("b_deg", json::string(std::to_string(P.b_deg)));
  r.printed.set("gap_deg", json::string(std::to_string(P.gap_deg)));
  const hp tol = seat_tolerance(r);
  bool ok = a == P.a_deg && b == P.b_deg && gap == P.gap_deg &&
            gap == gap0 && deg_gap(ah, a) <= tol && deg_gap(bh, b) <= tol;
  r.result = ok ? verdict::holds : verdict::fails;
  if (!ok)
    r.qualification = "computed A " + std::to_string(a) + ", B " + std::to_string(b) + ", gap " +
                      std::to_string(gap) + " (start gap " + std::to_string(gap0) + ")";
  return r;
});

PV_CLAIM("carousel.b", [](const claim_context&) {
  auto r = make("carousel.b",
                "ticket m seated at 30 m degrees mod 360: tickets 2, 5, 7, 10, their gaps, and "
                "(30 (m + 3) - 30 m) mod 360 for every m = 0 .. 999; the gap also as the angle "
                "between the RoPE-rotated (1, 0) vectors in mpfr");
  auto seat = [](std::int64_t m) { return mod360(30 * m); };
  std::int64_t t2 = seat(2), t5 = seat(5), t7 = seat(7), t10 = seat(10);
  std::int64_t g25 = mod360(t5 - t2), g710 = mod360(t10 - t7);
  const auto& P = printed_numbers::carousel_b;
  bool always = true;
  for (std::int64_t m = 0; m < 1000; ++m) always = always && mod360(seat(m + 3) - seat(m)) == P.gap_deg;
  hp g_hp = fmod(seat_deg(0, 30, 5) - seat_deg(0, 30, 2) + 360, hp(360));
  r.values.set("t2_deg", json::integer(t2));
  r.values.set("t5_deg", json::integer(t5));
  r.values.set("t7_deg", json::integer(t7));
  r.values.set("t10_deg", json::integer(t10));
  r.values.set("gap_deg", json::integer(g25));
  r.values.set("gap_7_10_deg", json::integer(g710));
  r.values.set("gap_3_always_90", json::boolean(always));
  r.values.set("gap_deg_hp", dec(g_hp));
  r.printed.set("t2_deg", json::string(std::to_string(P.t2_deg)));
  r.printed.set("t5_deg", json::string(std::to_string(P.t5_deg)));
  r.printed.set("t7_deg", json::string(std::to_string(P.t7_deg)));
  r.printed.set("t10_deg", json::string(std::to_string(P.t10_deg)));
  r.printed.set("gap_deg", json::string(std::to_string(P.gap_deg)));
  bool ok = t2 == P.t2_deg && t5 == P.t5_deg && t7 == P.t7_deg && t10 == P.t10_deg && g25 == P.gap_deg &&
            g710 == P.gap_deg && always && deg_gap(g_hp, P.gap_deg) <= 2 * seat_tolerance(r);
  r.result = ok ? verdict::holds : verdict::fails;
  if (!ok)
    r.qualification = "computed seats " + std::to_string(t2) + ", " + std::to_string(t5) + ", " +
                      std::to_string(t7) + ", " + std::to_string(t10) + ", gaps " +
                      std::to_string(g25) + ", " + std::to_string(g710);
  return r;
});

PV_CLAIM("carousel.c", [](const claim_context&) {
  auto r = make("carousel.c",
                "one speed of 30 degrees: 15 x 30 mod 360; the period (smallest p > 0 with "
                "30 p = 0 mod 360, by search); and in mpfr the RoPE dot of (1, 0) with itself at "
                "distance 15 against distance 3 (indistinguishable), and the same for q = (3/5, "
                "4/5), k = (-7/25, 24/25) from other starts");
  std::int64_t a15 = mod360(15 * 30);
  std::int64_t period = 0;
  for (std::int64_t p = 1; p <= 360 && period == 0; ++p)
    if (mod360(30 * p) == 0) period = p;
  auto L = rope_with_speeds<hp>({radians(hp(30))}, pairing::adjacent);
  const hp e[2] = {hp(1), hp(0)};
  double m = 4, n3 = 7, n15 = 19;
  hp d3 = rope_dot(L, e, &m, e, &n3), d15 = rope_dot(L, e, &m, e, &n15);
  // A second pair with both components non-zero, at other starts (distance 3
  // from 4, distance 15 from 1): a wrong sine sign adds -2 q_a q_b sin((m + n) w),
  // invisible with (1, 0) but not here.
  const hp q[2] = {hp(3) / 5, hp(4) / 5}, k[2] = {hp(-7) / 25, hp(24) / 25};
  double m1 = 1, n16 = 16;
  hp g3 = rope_dot(L, q, &m, k, &n3), g15 = rope_dot(L, q, &m1, k, &n16);
  r.values.set("dot_diff_3_vs_15_generic_q_k", dec(abs(g3 - g15)));
  r.values.set("angle_15_unwrapped_deg", json::integer(15 * 30));
  r.values.set("angle_diff_15_deg", json::integer(a15));
  r.values.set("period", json::integer(period));
  r.values.set("dot_distance_3", dec(d3));
  r.values.set("dot_distance_15", dec(d15));
  r.values.set("dot_diff_3_vs_15", dec(abs(d3 - d15)));
  const auto& P = printed_numbers::carousel_c;
  r.printed.set("angle_15_unwrapped_deg", json::string(std::to_string(P.angle_15_unwrapped_deg)));
  r.printed.set("angle_diff_15_deg", json::string(std::to_string(P.angle_diff_15_deg)));
  r.printed.set("period", json::string(std::to_string(P.period)));
  // Derived: the exact dots at distance 3 and 15 are equal (30 * 12 = 360),
  // so each difference is within the two dots' rounding bounds
  // (rope_dot_error_bound) plus the stored speed's error over the 12 extra
  // steps: 12 w gamma_3 (radians() rounds pi, a product and a quotient).
  const hp speed_err = 12 * radians(hp(30)) * gamma_hp<hp>(3);
  const hp tol_e = rope_dot_error_bound(L, e, &m, e, &n3) + rope_dot_error_bound(L, e, &m, e, &n15) + speed_err;
  const hp tol_g = rope_dot_error_bound(L, q, &m, k, &n3) + rope_dot_error_bound(L, q, &m1, k, &n16) +
                   speed_err;
  r.values.set("dot_diff_bounds", json::array().push(dec(tol_e)).push(dec(tol_g)));
  bool ok = a15 == P.angle_diff_15_deg && period == P.period && 15 * 30 == P.angle_15_unwrapped_deg && abs(d3 - d15) <= tol_e && abs(g3 - g15) <= tol_g;
  r.result = ok ? verdict::holds : verdict::fails;
  if (!ok)
    r.qualification = "15 steps give " + std::to_string(a15) + " degrees, period " +
                      std::to_string(period) + "; RoPE dots at distance 3 and 15 differ by " +
                      fig(abs(d3 - d15)) + " with (1, 0), by " + fig(abs(g3 - g15)) +
                      " with q = (3/5, 4/5), k = (-7/25, 24/25)";
  return r;
});

PV_CLAIM("carousel.d", [](const claim_context&) {
  auto r = make(
      "carousel.d",
      "theta 10000, d = 128 (64 speeds theta^(-2i/d)): slowest period 2 pi / w_63 in mpfr; then "
      "every distance D up to 10^7 at which the fastest pair has come round once (D >= 7) "
      "searched (float64 angles D w_i, error below 1e-8 rad, far inside eps) for one where all 64 "
      "angles lie within eps = 1 degree of a whole turn, "
      "and the closest approach (smallest worst-pair gap) confirmed in mpfr");
  const std::size_t d = 128;
  auto wh = geometric_speeds<hp>(d, hp(10000));
  auto wd = geometric_speeds<double>(d, 10000.0);
  const hp slowest = 2 * ref::pi() / wh.back();
  const double eps = 1.0 * std::numbers::pi / 180;
  const std::int64_t limit = 10000000;
  const auto found = search_collision(wd, eps, limit);
  const std::int64_t first_hit = found.first_hit, best_d = found.best_d;
  // A single speed for contrast: the fastest pair alone (1 rad per position).
  const std::int64_t single_hit = search_collision({wd[0]}, eps, limit, true).first_hit;
  // Confirm the closest approach in mpfr.
  hp best_deg = worst_turn_gap_deg(wh, best_d);
  r.values.set("slowest_period_positions", dec(slowest));
  r.values.set("eps_deg", json::integer(1));
  r.values.set("search_limit", json::integer(limit));
  r.values.set("search_from", json::integer(found.first_d));
  r.values.set("smallest_collision_distance", first_hit ? json::integer(first_hit) : json());
  r.values.set("closest_approach_distance", json::integer(best_d));
  r.values.set("closest_approach_deg", dec(best_deg));
  r.values.set("fastest_pair_alone_collision_distance", json::integer(single_hit));
  // Between one speed and 64: the first collision of k = 1 .. 4 speeds
  // theta^(-i/k), i = 0 .. k-1 (the ladder of a head of 2k components), by
  // the same search; the wheel's picture in index.html reads these rows.
  json by_speeds = json::object();
  by_speeds.set("theta", json::integer(10000));
  by_speeds.set("eps_deg", json::integer(1));
  by_speeds.set("search_limit", json::integer(limit));
  json rows = json::array();
  for (int k = 1; k <= 4; ++k) {
    std::vector<double> w;
    for (int i = 0; i < k; ++i) w.push_back(std::pow(10000.0, -double(i) / k));
    const std::int64_t hit = search_collision(w, eps, limit, true).first_hit;
    json row = json::object();
    row.set("speeds", json::integer(k));
    row.set("first_collision", hit ? json::integer(hit) : json());
    rows.push(row);
  }
  by_speeds.set("rows", rows);
  r.extra.set("first_collision_by_speed_count", by_speeds);
  bool slow_thousands = slowest > 1000;
  if (!slow_thousands) {
    r.result = verdict::fails;
    r.qualification = "the slowest pair turns once in " + fig(slowest) + " positions";
  } else if (first_hit == 0) {
    r.result = verdict::holds_qualified;
    r.qualification = "slowest pair needs " + fig(slowest, 8) +
                      " positions per turn; no distance from " + std::to_string(found.first_d) +
                      " (the fastest pair's first turn) to 10^7 brings all 64 pair angles "
                      "within 1 degree of a whole turn (the closest approach over that range: "
                      "some pair stays at least " + fig(best_deg, 6) + " degrees from a whole "
                      "turn, reached at distance " + std::to_string(best_d) +
                      "), while the fastest pair alone comes within 1 degree at distance " +
                      std::to_string(single_hit) + "; beyond 10^7 positions not searched";
    r.summary = "no distance up to 10^7 brings all 64 pairs within 1 degree of a whole turn (the "
                "fastest pair alone does at " + std::to_string(single_hit) +
                "); beyond 10^7 positions was not searched";
  } else {
    // A distance at which every pair lines up is exactly the collision the
    // chapter says several speeds prevent: the claim fails.
    r.result = verdict::fails;
    r.qualification = "slowest pair needs " + fig(slowest, 8) +
                      " positions per turn, but distance " + std::to_string(first_hit) +
                      " brings every pair within 1 degree of a whole turn: far differences collide";
  }
  return r;
});

}  // namespace
