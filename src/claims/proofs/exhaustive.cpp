// Exhaustive proofs on small domains: all orders, the 30-degree box, one
// speed, and their attachments (exhaustive.h).
#include "claims/proofs/exhaustive.h"

#include "claims/proofs/attach.h"
#include "claims/registry.h"
#include "core/verdict.h"

#include <numeric>

namespace pv::proofs {

namespace {

/// The verdict of an exact exhaustive proof (the 30-degree box, one speed):
/// "proved (exhaustive, exact)", or "disproved".
std::string exhaustive_exact(bool ok) {
  return qualified(ok ? verdict::proved : verdict::disproved, ok ? "exhaustive, exact" : "");
}

}  // namespace

// ---- all orders ----------------------------------------------------------------

matrix<double> p5_tokens() { return {{1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}}; }

std::vector<permutation> all_permutations(std::size_t n) {
  permutation p(n);
  std::iota(p.begin(), p.end(), std::size_t{0});
  std::vector<permutation> all;
  do all.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return all;
}

json to_json(const order_sweep& s, bool ieee) {
  json j = json::object();
  j.set("orders", json::integer(static_cast<std::int64_t>(s.orders)));
  j.set("max_abs_diff", json::string(ref::to_decimal(s.max_abs_diff, 30)));
  j.set("max_ratio_to_reorder_bound", json::string(ref::to_decimal(s.max_ratio_to_bound, 6)));
  j.set("within_reorder_bound", json::boolean(s.within_bound));
  if (ieee) {
    j.set("max_ulps", json::integer(s.max_ulps));
    j.set("bitwise_equal", json::boolean(s.bitwise_equal));
  }
  j.set("worst_order", json::string(pv::to_string(s.worst)));
  return j;
}

json prove_all_orders(const matrix<double>& X, const std::string& input_doc) {
  json j = json::object();
  j.set("input", json::string(input_doc));
  attention_options<hp> oh;
  attention_options<double> od;
  attention_options<float> of;
  od.sum = reduction::correctly_rounded;
  of.sum = reduction::correctly_rounded;
  const auto h = sweep_orders<hp>(X, oh);
  const auto d = sweep_orders<double>(X, od);
  const auto f = sweep_orders<float>(X, of);
  j.set("hp", to_json(h, false));
  j.set("float64_correctly_rounded", to_json(d, true));
  j.set("float32_correctly_rounded", to_json(f, true));
  const bool ok = h.within_bound && d.bitwise_equal && f.bitwise_equal;
  j.set("verdict", json::string(pv::qualified(ok ? pv::verdict::proved : pv::verdict::disproved, ok ? "exhaustive: every order" : "")));
  return j;
}

json six_cell_proof() {
  json j = json::object();
  j.set("six_cells", prove_all_orders(six_cell_input(),
                                      "one-row picture, 6 cells x 4 channels, " +
                                          std::string(claims::six_cell_formula) +
                                          " in float64; self-attention, identity projections, all 720 orders"));
  j.set("p5_tokens", p5_orders_proof());
  return j;
}

json p5_orders_proof() {
  return prove_all_orders(p5_tokens(), "a = (1, 0), b = (0, 1), c = (1, 1), Q = K = V, all 6 orders");
}

// ---- the 30-degree example in Q(sqrt 3) -----------------------------------------

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

json rope30_box_proof() {
  json j = json::object();
  const vec3 one{qsqrt3{1, 0}, qsqrt3{0, 0}};
  j.set("q_k_1_0", to_json(prove_rope30(one, one, 64)));
  const vec3 q{qsqrt3{rational(2, 3), 0}, qsqrt3{rational(-5, 7), 0}};
  const vec3 k{qsqrt3{rational(1, 4), 0}, qsqrt3{3, rational(1, 2)}};
  auto generic = to_json(prove_rope30(q, k, 64));
  generic.set("q", json::string("(2/3, -5/7)"));
  generic.set("k", json::string("(1/4, 3 + sqrt(3)/2)"));
  j.set("generic_q_k", generic);
  return j;
}

// ---- one speed -----------------------------------------------------------------

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

json single_speed_proofs() {
  json j = json::object();
  for (auto [p, q] : {std::pair<long, long>{1, 12}, {5, 12}, {3, 7}, {7, 30}, {11, 64}})
    j.set(std::to_string(p) + "/" + std::to_string(q), to_json(prove_single_speed(p, q)));
  return j;
}

}  // namespace pv::proofs

PV_CLAIM_PROOF("perm.six-cells", "exhaustive orders", [](const pv::claims::claim_context&, pv::claim_result& r) {
  static const pv::json j = pv::proofs::six_cell_proof();  // seed-independent: once per process
  pv::proofs::add_proof(r, "exhaustive_orders", j);
});
PV_CLAIM_PROOF("p5.no-encoding", "exhaustive orders", [](const pv::claims::claim_context&, pv::claim_result& r) {
  static const pv::json j = pv::proofs::p5_orders_proof();  // seed-independent: once per process
  pv::proofs::add_proof(r, "exhaustive_orders", j);
});
PV_CLAIM_PROOF("rope.example-30deg", "exhaustive box", [](const pv::claims::claim_context&, pv::claim_result& r) {
  static const pv::json j = pv::proofs::rope30_box_proof();  // seed-independent: once per process
  pv::proofs::add_proof(r, "exhaustive_box", j);
});
PV_CLAIM_PROOF("carousel.c", "single speed", [](const pv::claims::claim_context&, pv::claim_result& r) {
  static const pv::json j = pv::proofs::single_speed_proofs();  // seed-independent: once per process
  pv::proofs::add_proof(r, "single_speed", j);
});
