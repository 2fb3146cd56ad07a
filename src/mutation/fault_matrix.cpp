#include "mutation/fault_matrix.h"

#include "claims/registry.h"
#include "properties/runner.h"


namespace pv::mutation {

namespace {

bool claim_flipped(verdict base, verdict got) {
  return base != verdict::fails && base != verdict::not_checkable && got == verdict::fails;
}

bool property_flipped(verdict base, verdict got) { return base == verdict::passed && got != verdict::passed; }

/// The first `n` characters of the first line of s, for a table cell.
std::string first_words(const std::string& s, std::size_t n = 160) {
  std::string line = s.substr(0, s.find('\n'));
  return line.size() > n ? line.substr(0, n) + " …" : line;
}

struct one_run {
  std::vector<claim_result> claims;
  std::vector<property_result> properties;
  /// Bit k: fault k was asked about (numerics/fault.h, consulted_faults())
  /// by the property, or by the claim or a property it read.
  std::vector<std::uint32_t> property_faults, claim_faults;
};

prop::run_options property_options(const fault_matrix_options& o) {
  prop::run_options po;
  po.seed = o.seed;
  po.cases = o.property_cases;
  return po;
}

claims::claim_context claim_options(const fault_matrix_options& o, const std::vector<property_result>* properties) {
  claims::claim_context ctx;
  ctx.seed = o.seed;
  ctx.properties = properties;
  ctx.studies = false;  // verdicts only: a study without a verdict cannot flip
  return ctx;
}

/// The run without a fault, each claim and property on its own, with the
/// faults each one asked about.
one_run run_baseline(const fault_matrix_options& o) {
  one_run r;
  const auto po = property_options(o);
  for (const auto& p : prop::property_registry()) {
    consulted_faults() = 0;
    r.properties.push_back(prop::run_property(p, po));
    r.property_faults.push_back(consulted_faults());
  }
  auto ctx = claim_options(o, &r.properties);
  std::vector<std::string> read;
  ctx.properties_read = &read;
  for (std::size_t k = 0; k < claims::catalogue().size(); ++k) {
    read.clear();
    consulted_faults() = 0;
    auto one = claims::run_claims(ctx, [k](std::size_t i) { return i == k; });
    std::uint32_t asked = consulted_faults();
    for (const auto& id : read)
      for (std::size_t i = 0; i < r.properties.size(); ++i)
        if (r.properties[i].id == id) asked |= r.property_faults[i];
    r.claims.push_back(std::move(one.at(0)));
    r.claim_faults.push_back(asked);
  }
  consulted_faults() = 0;
  return r;
}

/// The run under fault f: what asked about f in the baseline is run again,
/// the rest is the baseline's (it runs alike, consulted_faults()).
one_run run_under(const fault_matrix_options& o, const one_run& base, fault f) {
  const std::uint32_t bit = std::uint32_t(1) << unsigned(f);
  one_run r = base;
  scoped_fault planted(f);
  const auto po = property_options(o);
  const auto& registry = prop::property_registry();
  for (std::size_t i = 0; i < registry.size(); ++i)
    if (base.property_faults[i] & bit) r.properties[i] = prop::run_property(registry[i], po);
  const auto ctx = claim_options(o, &r.properties);
  auto again = claims::run_claims(ctx, [&](std::size_t i) { return (base.claim_faults.at(i) & bit) != 0; });
  std::size_t next = 0;
  for (std::size_t i = 0; i < r.claims.size(); ++i)
    if (base.claim_faults[i] & bit) r.claims[i] = std::move(again.at(next++));
  return r;
}

}  // namespace

std::vector<std::string> fault_row::flipped_by(const std::vector<fault_info>& faults) const {
  std::vector<std::string> out;
  const bool is_property = baseline == verdict::passed || baseline == verdict::failed ||
                           baseline == verdict::gave_up || baseline == verdict::error;
  for (std::size_t f = 0; f < under.size(); ++f)
    if (is_property ? property_flipped(baseline, under[f]) : claim_flipped(baseline, under[f]))
      out.push_back(faults[f].name);
  return out;
}

std::vector<std::string> fault_matrix::unflipped() const {
  std::vector<std::string> out;
  for (const auto* rows : {&claims, &properties})
    for (const auto& r : *rows)
      if (r.checkable && r.flipped_by(faults).empty()) out.push_back(r.id);
  return out;
}

fault_matrix run_fault_matrix(const fault_matrix_options& o) {
  fault_matrix m;
  m.seed = o.seed;
  m.property_cases = o.property_cases;
  std::size_t nf = 0;
  const fault_info* fl = all_faults(&nf);
  m.faults.assign(fl, fl + nf);
  const one_run base = run_baseline(o);
  for (const auto& c : base.claims) {
    fault_row r;
    r.id = c.id;
    r.baseline = c.result;
    r.checkable = c.result != verdict::not_checkable;
    m.claims.push_back(r);
  }
  for (const auto& p : base.properties) {
    fault_row r;
    r.id = p.id;
    r.baseline = p.verdict;
    m.properties.push_back(r);
  }
  for (const auto& f : m.faults) {
    const one_run run = run_under(o, base, f.f);
    for (std::size_t i = 0; i < m.claims.size(); ++i) {
      auto& row = m.claims[i];
      const auto& c = run.claims.at(i);
      row.under.push_back(c.result);
      row.note.push_back(row.under.back() != row.baseline && c.qualification
                             ? first_words(*c.qualification) : "");
    }
    for (std::size_t i = 0; i < m.properties.size(); ++i) {
      auto& row = m.properties[i];
      const auto& p = run.properties.at(i);
      row.under.push_back(p.verdict);
      row.note.push_back(p.verdict != verdict::passed && p.counterexample ? first_words(*p.counterexample)
                                                                   : "");
    }
  }
  return m;
}

}  // namespace pv::mutation
