// Exhaustive proofs attached to perm.six-cells, p5.no-encoding,
// rope.example-30deg and carousel.c.
#include "exhaustive.h"
#include "posverify/verdict.h"

#include "attach.h"
#include "claims/registry.h"
#include "orders.h"
#include "rope30.h"

namespace pv::proofs {

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

json single_speed_proofs() {
  json j = json::object();
  for (auto [p, q] : {std::pair<long, long>{1, 12}, {5, 12}, {3, 7}, {7, 30}, {11, 64}})
    j.set(std::to_string(p) + "/" + std::to_string(q), to_json(prove_single_speed(p, q)));
  return j;
}

}  // namespace pv::proofs

PV_CLAIM_PROOF("perm.six-cells", "exhaustive orders", [](const pv::claims::context&, pv::claim_result& r) {
  static const pv::json j = pv::proofs::six_cell_proof();  // seed-independent: once per process
  pv::proofs::add_proof(r, "exhaustive_orders", j);
});
PV_CLAIM_PROOF("p5.no-encoding", "exhaustive orders", [](const pv::claims::context&, pv::claim_result& r) {
  static const pv::json j = pv::proofs::p5_orders_proof();  // seed-independent: once per process
  pv::proofs::add_proof(r, "exhaustive_orders", j);
});
PV_CLAIM_PROOF("rope.example-30deg", "exhaustive box", [](const pv::claims::context&, pv::claim_result& r) {
  static const pv::json j = pv::proofs::rope30_box_proof();  // seed-independent: once per process
  pv::proofs::add_proof(r, "exhaustive_box", j);
});
PV_CLAIM_PROOF("carousel.c", "single speed", [](const pv::claims::context&, pv::claim_result& r) {
  static const pv::json j = pv::proofs::single_speed_proofs();  // seed-independent: once per process
  pv::proofs::add_proof(r, "single_speed", j);
});
