#include "rope30.h"
#include "posverify/verdict.h"

#include <vector>

namespace pv::proofs {

vec3 rotate_exact(const vec3& x, const qsqrt3& c, const qsqrt3& s) {
  return {x[0] * c - x[1] * s, x[0] * s + x[1] * c};
}

namespace {

qsqrt3 dot(const vec3& x, const vec3& y) { return x[0] * y[0] + x[1] * y[1]; }

std::string str(const vec3& v) {
  std::string s("(");
  s.append(v[0].str()).append(", ").append(v[1].str()).append(")");
  return s;
}

/// "proved (exhaustive, exact)", or "disproved".
std::string exhaustive_exact(bool ok) {
  return qualified(ok ? verdict::proved : verdict::disproved, ok ? "exhaustive, exact" : "");
}

}  // namespace

rope30_proof prove_rope30(const vec3& q, const vec3& k, long box, const rotation_rule& rotate) {
  rope30_proof r;
  r.box = box;
  // cos and sin of p*30 degrees for p in [0, 2 box): angle addition from
  // (cos 30, sin 30) = (sqrt3/2, 1/2), exactly.
  const qsqrt3 c1{0, rational(1, 2)}, s1{rational(1, 2), 0};
  std::vector<qsqrt3> c(2 * box), s(2 * box);
  c[0] = {1, 0};
  s[0] = {0, 0};
  for (long p = 1; p < 2 * box; ++p) {
    c[p] = c[p - 1] * c1 - s[p - 1] * s1;
    s[p] = s[p - 1] * c1 + c[p - 1] * s1;
  }
  std::vector<vec3> qr(2 * box), kr(2 * box);
  for (long p = 0; p < 2 * box; ++p) {
    qr[p] = rotate(q, c[p], s[p]);
    kr[p] = rotate(k, c[p], s[p]);
  }
  for (long d = 0; d < 12; ++d) r.by_difference[d] = dot(qr[d], kr[0]);
  r.dot_2_5 = dot(qr[2], kr[5]);
  r.dot_7_10 = dot(qr[7], kr[10]);
  r.dot_3_4 = dot(qr[3], kr[4]);
  for (long m = 0; m < box; ++m)
    for (long n = 0; n < box; ++n) {
      const qsqrt3 base = dot(qr[m], kr[n]);
      const long diff = (((m - n) % 12) + 12) % 12;
      if (!(base == r.by_difference[diff]) && r.depends_on_diff_mod_12) {
        r.depends_on_diff_mod_12 = false;
        if (r.counterexample.empty())
          r.counterexample = "m=" + std::to_string(m) + " n=" + std::to_string(n) + ": dot " +
                             base.str() + " != D[" + std::to_string(diff) + "] = " +
                             r.by_difference[diff].str();
      }
      for (long sh = 0; sh < box; ++sh) {
        ++r.triples;
        const qsqrt3 shifted = dot(qr[m + sh], kr[n + sh]);
        if (!(shifted == base) && r.shift_invariant) {
          r.shift_invariant = false;
          r.counterexample = "m=" + std::to_string(m) + " n=" + std::to_string(n) +
                             " s=" + std::to_string(sh) + ": dot(m+s, n+s) = " + shifted.str() +
                             " != dot(m, n) = " + base.str() + "; q' = " + str(qr[m + sh]);
        }
      }
    }
  return r;
}

json to_json(const rope30_proof& p) {
  json j = json::object();
  j.set("method", json::string("exact arithmetic in Q(sqrt 3): cos/sin of p*30 deg by exact angle addition"));
  j.set("box", json::string("m, n, s in [0, " + std::to_string(p.box) + ")"));
  j.set("triples", json::integer(p.triples));
  j.set("shift_invariant", json::boolean(p.shift_invariant));
  j.set("depends_only_on_m_minus_n_mod_12", json::boolean(p.depends_on_diff_mod_12));
  json d = json::array();
  for (const auto& v : p.by_difference) d.push(json::string(v.str()));
  j.set("dot_by_difference_mod_12", d);
  j.set("dot_2_5", json::string(p.dot_2_5.str()));
  j.set("dot_7_10", json::string(p.dot_7_10.str()));
  j.set("dot_3_4", json::string(p.dot_3_4.str()));
  j.set("verdict", json::string(exhaustive_exact(p.shift_invariant && p.depends_on_diff_mod_12)));
  if (!p.counterexample.empty()) j.set("counterexample", json::string(p.counterexample));
  return j;
}

single_speed_proof prove_single_speed(long p, long q) {
  single_speed_proof r;
  r.p = p;
  r.q = q;
  r.distances = 3 * q;
  // Turn fraction of distance d, reduced mod 1: frac(d p / q).
  std::vector<rational> turn(r.distances);
  for (long d = 0; d < r.distances; ++d) {
    rational t(d * p, q);
    // floor of a non-negative rational: numerator div denominator
    boost::multiprecision::mpz_int whole = numerator(t) / denominator(t);
    turn[d] = t - rational(whole);
  }
  for (long d1 = 0; d1 < r.distances; ++d1)
    for (long d2 = d1 + 1; d2 < r.distances; ++d2) {
      ++r.pairs;
      const bool alike = turn[d1] == turn[d2];
      const bool congruent = (d2 - d1) % q == 0;
      if (alike != congruent && r.alike_iff_congruent) {
        r.alike_iff_congruent = false;
        r.counterexample = "distances " + std::to_string(d1) + " and " + std::to_string(d2) +
                           (alike ? " look alike (turn " + turn[d1].str() + ") but are not congruent mod "
                                  : " are congruent but differ (turns " + turn[d1].str() + ", " +
                                        turn[d2].str() + ") mod ") +
                           std::to_string(q);
      }
    }
  return r;
}

json to_json(const single_speed_proof& p) {
  json j = json::object();
  j.set("speed", json::string("2 pi * " + std::to_string(p.p) + "/" + std::to_string(p.q)));
  j.set("distances", json::string("[0, " + std::to_string(p.distances) + ")"));
  j.set("pairs", json::integer(p.pairs));
  j.set("alike_iff_congruent_mod_q", json::boolean(p.alike_iff_congruent));
  j.set("verdict", json::string(exhaustive_exact(p.alike_iff_congruent)));
  if (!p.counterexample.empty()) j.set("counterexample", json::string(p.counterexample));
  return j;
}

}  // namespace pv::proofs
