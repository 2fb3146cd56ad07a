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
};

one_run run_once(const fault_matrix_options& o) {
  one_run r;
  prop::run_options po;
  po.seed = o.seed;
  po.cases = o.property_cases;
  for (const auto& p : prop::property_registry()) r.properties.push_back(prop::run_property(p, po));
  claims::claim_context ctx;
  ctx.seed = o.seed;
  ctx.properties = &r.properties;
  ctx.studies = false;  // verdicts only: a study without a verdict cannot flip
  r.claims = claims::run_claims(ctx);
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
  const one_run base = run_once(o);
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
    one_run run;
    {
      scoped_fault planted(f.f);
      run = run_once(o);
    }
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
