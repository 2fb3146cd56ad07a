// Attaches the certificates of the printed figures (issue 4, "certified
// numbers") to their claims as extra "certificate": {name -> {enclosure,
// printed, verdict, ...}}. Computed here, independently of the claim's values.
#include "chapter_numbers.h"
#include "attach.h"
#include "claims/registry.h"
#include "claims/worked_example_printed.h"

namespace {

void attach(const std::string& id, pv::claim_result& r) {
  r.extra.set("certificate", pv::proofs::to_json(pv::proofs::chapter_certificates(id)));
}

// Every certified claim (the one list: certified_claim_ids) gets its certificate.
const bool certificates_registered = [] {
  for (const auto& id : pv::proofs::certified_claim_ids())
    pv::claims::proofs().push_back(
        {id, "certificate", [id](const pv::claims::context&, pv::claim_result& r) { attach(id, r); }});
  return true;
}();

}  // namespace

// Which reading of the additive example reproduces both printed figures.
PV_CLAIM_PROOF("additive.example", "reading", [](const pv::claims::context&, pv::claim_result& r) {
  using namespace pv::proofs;
  const auto& printed = pv::claims::printed_numbers::additive_example;
  pv::json readings = pv::json::array();
  for (auto rd : {additive_reading::content_plus_position, additive_reading::content_plus_cos_sin,
                  additive_reading::position_only}) {
    const bool both = certify_rounding("", "", additive_dot(2, 5, rd), printed.dot_2_5).verdict == pv::verdict::proved &&
                      certify_rounding("", "", additive_dot(7, 10, rd), printed.dot_7_10).verdict == pv::verdict::proved;
    if (both) readings.push(pv::json::string(to_string(rd)));
  }
  pv::json j = pv::json::object();
  j.set("readings_tried", pv::json::integer(3));
  j.set("readings_reproducing_both_printed_values", readings);
  add_proof(r, "additive_reading", j);
});

PV_CLAIM_PROOF("p5.with-encoding", "symmetry broken in every order",
               [](const pv::claims::context&, pv::claim_result& r) {
                 pv::proofs::add_proof(r, "every_order_breaks_symmetry",
                                       pv::proofs::p5_encoding_breaks_every_order());
               });
