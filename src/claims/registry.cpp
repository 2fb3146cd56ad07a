#include "registry.h"

namespace pv::claims {

const property_result* context::property(const std::string& id) const {
  if (!properties) return nullptr;
  for (const auto& p : *properties)
    if (p.id == id) return &p;
  return nullptr;
}

std::vector<proof_def>& proofs() {
  static std::vector<proof_def> p;
  return p;
}

std::vector<claim_def>& registry() {
  static std::vector<claim_def> r;
  return r;
}

const std::vector<catalogue_entry>& catalogue() {
  static const std::vector<catalogue_entry> c = {
      {"perm.six-cells", "Opening: attention does not know order"},
      {"perm.word-order", "Opening: attention does not know order"},
      {"perm.picture-rows", "Opening: attention does not know order"},
      {"sinusoid.wavelengths", "History: from adding to rotating"},
      {"sinusoid.timestep-embedding", "History: from adding to rotating"},
      {"sinusoid.linear-shift", "History: from adding to rotating"},
      {"sinusoid.learned-similar", "History: from adding to rotating"},
      {"additive.cross-terms", "History: from adding to rotating"},
      {"rope.relative", "History: from adding to rotating"},
      {"rope.example-30deg", "Worked example: rotated positions keep only the difference"},
      {"additive.example", "Worked example: rotated positions keep only the difference"},
      {"rope.distance-only", "Worked example: rotated positions keep only the difference"},
      {"rope.multi-frequency", "Worked example: rotated positions keep only the difference"},
      {"flux.axes", "FLUX.1: pictures rotate along two directions"},
      {"flux.same-row-col", "FLUX.1: pictures rotate along two directions"},
      {"flux.separate-offsets", "FLUX.1: pictures rotate along two directions"},
      {"flux.text-identity", "FLUX.1: pictures rotate along two directions"},
      {"carousel.a", "Problem 4: two friends on a carousel"},
      {"carousel.b", "Problem 4: two friends on a carousel"},
      {"carousel.c", "Problem 4: two friends on a carousel"},
      {"carousel.d", "Problem 4: two friends on a carousel"},
      {"p5.no-encoding", "Problem 5: changing the order of three tokens"},
      {"p5.why", "Problem 5: changing the order of three tokens"},
      {"p5.with-encoding", "Problem 5: changing the order of three tokens"},
      {"p5.conv-first", "Problem 5: changing the order of three tokens"},
      {"p6.sd-no-encoding", "Problem 6: the U-Net's attention without positions"},
      {"p6.attention-only-blind", "Problem 6: the U-Net's attention without positions"},
      {"p6.conv-carries-neighbours", "Problem 6: the U-Net's attention without positions"},
      {"p6.identical-centres", "Problem 6: the U-Net's attention without positions"},
      {"p6.conv-position-unmeasured", "Problem 6: the U-Net's attention without positions"},
      {"p6.flux-bag", "Problem 6: the U-Net's attention without positions"},
  };
  return c;
}

std::string section_of(const std::string& id) {
  for (const auto& e : catalogue())
    if (id == e.id) return e.section;
  return "Other";
}

claim_result make(const std::string& id, const std::string& checked) {
  claim_result r;
  r.id = id;
  r.section = section_of(id);
  r.checked = checked;
  return r;
}

std::vector<claim_result> run_all(const context& ctx) {
  std::vector<claim_result> out;
  for (const auto& e : catalogue()) {
    const claim_def* def = nullptr;
    for (const auto& d : registry())
      if (d.id == e.id) def = &d;
    if (!def) {
      claim_result r = make(e.id, "—");
      r.result = verdict::fails;
      r.qualification = "not implemented in posverify";
      out.push_back(r);
      continue;
    }
    claim_result r = def->compute(ctx);
    r.id = e.id;
    r.section = e.section;
    for (const auto& pf : proofs())
      if (pf.claim_id == e.id) pf.attach(ctx, r);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace pv::claims
