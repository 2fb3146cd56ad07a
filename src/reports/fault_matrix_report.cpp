#include "reports/fault_matrix_report.h"

#include "reports/build_line.h"
#include "reports/markdown.h"

#include <string>

namespace pv::reports {

using namespace pv::mutation;  // the records this file writes

json to_json(const fault_matrix& m) {
  json j = json::object();
  j.set("tool", json::string("posverify"));
  j.set("build", json::string(build_line()));
  j.set("seed", json::string(std::to_string(m.seed)));
  j.set("property_cases", json::integer(m.property_cases));
  json faults = json::array();
  for (const auto& f : m.faults) {
    json o = json::object();
    o.set("name", json::string(f.name));
    o.set("what", json::string(f.what));
    faults.push(o);
  }
  j.set("faults", faults);
  auto rows = [&](const std::vector<fault_row>& rs) {
    json a = json::array();
    for (const auto& r : rs) {
      json o = json::object();
      o.set("id", json::string(r.id));
      o.set("baseline", json::string(to_string(r.baseline)));
      json under = json::object();
      for (std::size_t f = 0; f < r.under.size(); ++f) {
        json cell = json::object();
        cell.set("verdict", json::string(to_string(r.under[f])));
        if (!r.note[f].empty()) cell.set("note", json::string(r.note[f]));
        under.set(m.faults[f].name, cell);
      }
      o.set("under", under);
      json by = json::array();
      for (const auto& n : r.flipped_by(m.faults)) by.push(json::string(n));
      o.set("flipped_by", by);
      if (!r.checkable) o.set("checkable", json::boolean(false));
      a.push(o);
    }
    return a;
  };
  j.set("claims", rows(m.claims));
  j.set("properties", rows(m.properties));
  json un = json::array();
  for (const auto& id : m.unflipped()) un.push(json::string(id));
  j.set("flipped_by_no_fault", un);
  return j;
}

std::string to_markdown(const fault_matrix& m) {
  std::string s = "# posverify fault matrix\n\n" + build_markdown(build_line());
  const auto un = m.unflipped();
  std::size_t n_claims = 0, n_props = m.properties.size();
  for (const auto& r : m.claims) n_claims += r.checkable ? 1 : 0;
  if (un.empty()) {
    s += "Every checkable claim (" + std::to_string(n_claims) + ") and every property (" +
         std::to_string(n_props) + ") is flipped by at least one planted fault.\n\n";
  } else {
    s += "**Flipped by no planted fault** (" + std::to_string(un.size()) + "):";
    for (const auto& id : un) s += " `" + id + "`";
    s += ". These verdicts have not been shown able to fail.\n\n";
  }
  s += "Each planted fault (src/posverify/fault.h) breaks one formula of posverify's own "
       "numerics. Every claim and every property is run without a fault (the baseline) and "
       "under each fault; a fault *flips* a claim that holds (or holds with its "
       "qualification) when the claim fails under it, and a property that passes when it "
       "does not pass. Seed " + std::to_string(m.seed) + "; the properties run " +
       std::to_string(m.property_cases) +
       " cases each here, in the baseline and under every fault (verify runs 1000), so a "
       "fault that a property notices only rarely may be missed; the claims run as in verify, "
       "less the studies that carry no verdict of their own (carousel.d's horizon under model "
       "scalings), which cannot flip one. Reproduce with `posverify verify --fault-matrix --seed " + std::to_string(m.seed) +
       " --cases " + std::to_string(m.property_cases) + "`.\n\n";
  s += "## Faults\n\n| | fault | what it breaks |\n|---|---|---|\n";
  for (std::size_t f = 0; f < m.faults.size(); ++f)
    s += "| F" + std::to_string(f + 1) + " | `" + m.faults[f].name + "` | " +
         markdown_cell(m.faults[f].what) + " |\n";
  auto table = [&](const char* title, const std::vector<fault_row>& rows, bool claims) {
    s += std::string("\n## ") + title + "\n\n";
    s += claims ? "A cell shows **fails** where the fault flips the claim, `=` where the verdict "
                  "is the baseline's, and the verdict otherwise.\n\n"
                : "A cell shows **failed** where the fault flips the property, `=` where it "
                  "passes as in the baseline, and the verdict otherwise.\n\n";
    s += "| id | baseline |";
    for (std::size_t f = 0; f < m.faults.size(); ++f) s += " F" + std::to_string(f + 1) + " |";
    s += " flipped by |\n|---|---|";
    for (std::size_t f = 0; f < m.faults.size(); ++f) s += "---|";
    s += "---|\n";
    for (const auto& r : rows) {
      s += "| `" + r.id + "` | " + to_string(r.baseline) + " |";
      for (const auto& v : r.under) {
        if (v == r.baseline) s += " = |";
        else if (v == verdict::fails || v == verdict::failed) s += " **" + std::string(to_string(v)) + "** |";
        else s += " " + std::string(to_string(v)) + " |";
      }
      const auto by = r.flipped_by(m.faults);
      s += " " + (r.checkable ? std::to_string(by.size()) : std::string("not checkable")) + " |\n";
    }
  };
  table("Claims", m.claims, true);
  table("Properties", m.properties, false);
  s += "\n## What each fault did (first words of the failure)\n\n";
  for (std::size_t f = 0; f < m.faults.size(); ++f) {
    s += "### F" + std::to_string(f + 1) + " `" + m.faults[f].name + "`\n\n";
    bool any = false;
    for (const auto* rows : {&m.claims, &m.properties})
      for (const auto& r : *rows)
        if (r.under[f] != r.baseline) {
          any = true;
          s += "- `" + r.id + "` " + to_string(r.under[f]) + (r.note[f].empty() ? "" : ": " + r.note[f]) + "\n";
        }
    if (!any) s += "- nothing changed\n";
    s += "\n";
  }
  return s;
}

}  // namespace pv::reports
