#include "claims/registry.h"

#include <algorithm>
#include <exception>

namespace pv::claims {

const property_result* claim_context::property(const std::string& id) const {
  if (properties_read) properties_read->push_back(id);
  if (!properties) return nullptr;
  for (const auto& p : *properties)
    if (p.id == id) return &p;
  return run_missing ? run_missing(id) : nullptr;
}

std::vector<proof_def>& proofs() {
  static std::vector<proof_def> p;
  return p;
}

std::vector<claim_def>& claim_registry() {
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

namespace {

/// Every object under `j` with a string "verdict": the path of its keys and
/// whether the verdict is unexpected (differs from its "expected", or, with
/// no "expected", begins with disproved: leading_verdict).
void collect_unexpected(const json& j, const std::string& path, std::vector<std::string>& bad) {
  using K = json::kind;
  if (j.type() == K::object) {
    const json* v = j.find("verdict");
    if (v && v->type() == K::string) {
      const std::string got = v->as_string();
      const json* want = j.find("expected");
      const bool has_want = want && want->type() == K::string;
      const bool unexpected = has_want ? got != want->as_string() : leading_verdict(got) == verdict::disproved;
      if (unexpected)
        bad.push_back(path + " (" + got + (has_want ? ", expected " + want->as_string() : "") + ")");
    }
    for (const auto& [k, child] : j.items())
      if (k != "verdict") collect_unexpected(child, path.empty() ? k : path + "/" + k, bad);
  } else if (j.type() == K::array) {
    std::size_t i = 0;
    for (const auto& item : j.items()) collect_unexpected(item.second, path + "/" + std::to_string(i++), bad);
  }
}

}  // namespace

void apply_proof_verdicts(claim_result& r) {
  std::vector<std::string> bad;
  collect_unexpected(r.extra, "", bad);
  if (bad.empty()) return;
  json names = json::array();
  std::string list;
  for (const auto& b : bad) {
    names.push(json::string(b));
    list += (list.empty() ? "" : "; ") + b;
  }
  r.extra.set("proof_failures", names);
  const std::string before = r.qualification ? " Before the proofs: " + *r.qualification : "";
  r.result = verdict::fails;
  r.qualification = "a proof or certificate came out other than expected: " + list + "." + before;
}

std::vector<claim_result> run_claims(const claim_context& ctx, const std::function<bool(std::size_t)>& keep) {
  std::vector<claim_result> out;
  for (std::size_t i = 0; i < catalogue().size(); ++i) {
    const auto& e = catalogue()[i];
    if (keep && !keep(i)) continue;
    const claim_def* def = nullptr;
    for (const auto& d : claim_registry())
      if (d.id == e.id) def = &d;
    if (!def) {
      claim_result r = make(e.id, "—");
      r.result = verdict::fails;
      r.qualification = "not implemented in posverify";
      out.push_back(r);
      continue;
    }
    out.push_back(run_claim(e, *def, ctx));
  }
  return out;
}

claim_result run_claim(const catalogue_entry& e, const claim_def& def, const claim_context& ctx) {
  try {
    claim_result r = def.compute(ctx);
    r.id = e.id;
    r.section = e.section;
    // in the order of their names, whatever order their files registered them in
    std::vector<const proof_def*> mine;
    for (const auto& pf : proofs())
      if (pf.claim_id == e.id) mine.push_back(&pf);
    std::stable_sort(mine.begin(), mine.end(), [](const proof_def* a, const proof_def* b) { return a->name < b->name; });
    for (const proof_def* pf : mine) pf->attach(ctx, r);
    apply_proof_verdicts(r);
    return r;
  } catch (const std::exception& ex) {
    // One claim that throws is that claim's failure, not the whole report's.
    claim_result r = make(e.id, "—");
    r.section = e.section;
    r.result = verdict::fails;
    r.qualification = std::string("the claim's computation threw: ") + ex.what();
    return r;
  }
}

}  // namespace pv::claims
