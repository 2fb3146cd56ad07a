// Attaches the certificates of the printed figures (issue 4, "certified
// numbers") to their claims as extra "certificate": {name -> {enclosure,
// printed, verdict, ...}}. Computed here, independently of the claim's values.
#include "chapter_numbers.h"
#include "claims/registry.h"

namespace {

void attach(const std::string& id, pv::claim_result& r) {
  r.extra.set("certificate", pv::proofs::to_json(pv::proofs::chapter_certificates(id)));
}

}  // namespace

#define PV_CERTIFY(id) \
  PV_CLAIM_PROOF(id, "certificate", [](const pv::claims::context&, pv::claim_result& r) { attach(id, r); })

PV_CERTIFY("rope.example-30deg");
PV_CERTIFY("additive.example");
PV_CERTIFY("sinusoid.wavelengths");
PV_CERTIFY("carousel.a");
PV_CERTIFY("carousel.b");
PV_CERTIFY("carousel.c");
PV_CERTIFY("p5.no-encoding");
PV_CERTIFY("p5.with-encoding");
