#include "reports/claims_report.h"
#include "reports/build_line.h"
#include "core/results_fields.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>
#include <stdexcept>

namespace pv::reports {

json to_json(const report& r) { return report_fields().write(r); }  // core/results.h

report report_of_json(const json& j, const std::string& where) { return report_fields().read(j, where); }

namespace {

/// A JSON value for people (markdown.h).
std::string shown(const json& v) { return md::value(v); }

bool is_flat(const json& v) {
  if (v.type() == json::kind::object) return false;
  if (v.type() != json::kind::array) return true;
  for (const auto& kv : v.items())
    if (!is_flat(kv.second)) return false;
  return true;
}

/// Whether v is an array of at least two objects whose fields are all flat.
bool is_record_list(const json& v) {
  if (v.type() != json::kind::array || v.size() < 2) return false;
  for (const auto& kv : v.items()) {
    if (kv.second.type() != json::kind::object) return false;
    for (const auto& f : kv.second.items())
      if (!is_flat(f.second)) return false;
  }
  return true;
}

/// A list of records as one table, one column per record (so that it stays
/// narrow): the record's leading text fields name its column ("float64
/// sequential"), each further field is a row.
std::string record_table(const json& list) {
  std::vector<std::string> header = {""}, fields;
  std::vector<std::size_t> label_fields;
  for (const auto& kv : list.items()) {
    std::string label;
    std::size_t n = 0;
    for (const auto& f : kv.second.items()) {
      if (f.second.type() != json::kind::string || is_json_number(f.second.as_string())) break;
      label += (label.empty() ? "" : " ") + f.second.as_string();
      ++n;
    }
    header.push_back(label.empty() ? "[" + std::to_string(header.size() - 1) + "]" : markdown_cell(label));
    label_fields.push_back(n);
    for (std::size_t k = n; k < kv.second.items().size(); ++k) {
      const std::string& name = kv.second.items()[k].first;
      if (std::find(fields.begin(), fields.end(), name) == fields.end()) fields.push_back(name);
    }
  }
  md::table t(header);
  for (const auto& name : fields) {
    std::vector<std::string> row = {name};
    for (const auto& kv : list.items()) {
      const json* f = kv.second.find(name);
      row.push_back(f ? markdown_cell(shown(*f)) : "—");
    }
    t.row(row);
  }
  return t.str();
}

/// A JSON value as an indented bullet list: objects and arrays of objects
/// nest, scalars and flat arrays stay on their line, lists of records become
/// a table.
std::string nested_list(const json& v, int depth) {
  const std::string pad(depth * 2, ' ');
  std::string s;
  if (v.type() == json::kind::object) {
    for (const auto& kv : v.items()) {
      if (is_flat(kv.second)) s += pad + md::wrap("- " + kv.first + ": " + shown(kv.second), 118 - pad.size(), pad + "  ") + "\n";
      else if (is_record_list(kv.second)) s += pad + "- " + kv.first + ":\n\n" + record_table(kv.second) + "\n";
      else s += pad + "- " + kv.first + ":\n" + nested_list(kv.second, depth + 1);
    }
  } else if (v.type() == json::kind::array && !is_flat(v)) {
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      const json& item = v.items()[i].second;
      if (is_flat(item)) s += pad + md::wrap("- " + shown(item), 118 - pad.size(), pad + "  ") + "\n";
      else s += pad + "- [" + std::to_string(i) + "]\n" + nested_list(item, depth + 1);
    }
  } else {
    s += pad + md::wrap("- " + shown(v), 118 - pad.size(), pad + "  ") + "\n";
  }
  return s;
}

std::string field_text(const json& e, const char* k) {
  const json* f = e.find(k);
  return f && !f->is_null() ? (f->type() == json::kind::string ? f->as_string() : shown(*f)) : std::string();
}

/// A certificate's verdict for people: a reading the chapter rejects on
/// purpose is "ruled out" (its computed verdict is disproved, as expected);
/// anything but proved stands out in bold.
std::string certificate_verdict(const json& e) {
  const std::string v = field_text(e, "verdict");
  const json* rejected = e.find("rejected_reading");
  if (parse_verdict(v) == verdict::disproved && rejected && rejected->type() == json::kind::boolean &&
      rejected->as_bool() && parse_verdict(field_text(e, "expected")) == verdict::disproved)
    return "ruled out";
  return parse_verdict(v) == verdict::proved ? v : "**" + v + "**";
}

/// The enclosure [lo, hi] at 4 significant digits; one figure when both ends
/// round alike.
std::string enclosure_text(const json& e) {
  const json* enc = e.find("enclosure");
  if (!enc || enc->type() != json::kind::array || enc->size() != 2) return enc ? shown(*enc) : "—";
  const std::string lo = shown(enc->items()[0].second), hi = shown(enc->items()[1].second);
  return lo == hi ? lo : "[" + lo + ", " + hi + "]";
}

/// A certificate (printed value -> enclosure -> verdict) as a table.
std::string certificate_table(const json& cert) {
  if (cert.type() != json::kind::object) return nested_list(cert, 0);
  std::string checks;
  md::table t({"value", "printed", "exact value", "verdict", "how"});
  for (const auto& kv : cert.items()) {
    const json& e = kv.second;
    if (e.type() != json::kind::object) {
      t.row({"`" + kv.first + "`", "", "", "", markdown_cell(shown(e))});
      continue;
    }
    if (checks.empty()) checks = field_text(e, "checks");
    std::string how = field_text(e, "formula");
    for (const char* k : {"rule", "why", "exact"})
      if (const std::string f = field_text(e, k); !f.empty()) how += (how.empty() ? "" : "; ") + md::prose(f);
    if (parse_verdict(field_text(e, "verdict")) != verdict::proved)
      if (const std::string f = field_text(e, "expected_why"); !f.empty()) how += "; expected: " + f;
    t.row({"`" + kv.first + "`", markdown_cell(field_text(e, "printed")), markdown_cell(enclosure_text(e)),
           certificate_verdict(e), markdown_cell(how)});
  }
  return (checks.empty() ? "" : md::wrap("Each row checks " + checks + ".") + "\n\n") + t.str();
}

/// The printed numbers a certificate disproves, other than the readings the
/// chapter rejects on purpose: "`name`: printed P, exact value V (why)".
std::vector<std::string> disproved_numbers(const json& cert) {
  std::vector<std::string> out;
  if (cert.type() != json::kind::object) return out;
  for (const auto& kv : cert.items()) {
    const json& e = kv.second;
    if (e.type() != json::kind::object || parse_verdict(field_text(e, "verdict")) != verdict::disproved) continue;
    if (certificate_verdict(e) == "ruled out") continue;
    out.push_back("`" + kv.first + "`: printed " + field_text(e, "printed") + ", exact value " +
                  enclosure_text(e) + " (" + field_text(e, "why") + ")");
  }
  return out;
}

std::size_t ruled_out_count(const json& cert) {
  std::size_t n = 0;
  if (cert.type() == json::kind::object)
    for (const auto& kv : cert.items())
      if (kv.second.type() == json::kind::object && certificate_verdict(kv.second) == "ruled out") ++n;
  return n;
}

/// The qualification in one sentence: the claim's own summary, or else the
/// qualification up to its first clause.
std::string brief(const claim_result& c) {
  if (c.summary) return *c.summary;
  if (!c.qualification) return "";
  const std::string& q = *c.qualification;
  const auto cut = q.find("; ");
  return cut == std::string::npos ? q : q.substr(0, cut);
}

}  // namespace

std::string to_markdown(const report& r) {
  std::string out;
  out += "# posverify: the chapter's claims, checked\n\n" + build_markdown(r.build.value_or(""));
  out += md::wrap("Generated by `posverify verify` (version " + r.version + "), reference precision " +
                  std::to_string(r.precision_bits) + " bits (MPFR), seed " + r.seed +
                  ". Values are computed; verdicts are derived from them. Figures are shown with " +
                  std::to_string(md::digits) + " significant digits; claims.json keeps every digit. "
                  "Do not edit by hand.") + "\n\n";

  // At a glance: what does not simply hold.
  std::map<verdict, std::vector<const claim_result*>> by;
  for (const auto& c : r.claims) by[c.result].push_back(&c);
  std::size_t props_passed = 0;
  for (const auto& p : r.properties) props_passed += p.verdict == verdict::passed ? 1 : 0;
  out += md::heading(2, "At a glance");
  out += md::wrap(std::to_string(r.claims.size()) + " claims: " + std::to_string(by[verdict::holds].size()) +
                  " hold, " + std::to_string(by[verdict::holds_qualified].size()) + " hold with a qualification, " +
                  std::to_string(by[verdict::not_checkable].size()) + " cannot be checked, " +
                  std::to_string(by[verdict::fails].size()) + " fail. Properties (random cases): " +
                  std::to_string(props_passed) + " of " + std::to_string(r.properties.size()) + " passed.") +
         "\n\n";
  auto group = [&](verdict v, const char* title) {
    if (by[v].empty()) return;
    out += "**" + std::string(title) + "**\n\n";
    for (const auto* c : by[v]) out += md::wrap("- `" + c->id + "`: " + md::prose(brief(*c)), 118, "  ") + "\n";
    out += "\n";
  };
  group(verdict::fails, "Fail");
  group(verdict::holds_qualified, "Hold with a qualification");
  group(verdict::not_checkable, "Cannot be checked");
  std::vector<std::string> disproved;
  std::size_t ruled_out = 0;
  std::vector<std::string> ruled_out_in;
  for (const auto& c : r.claims)
    if (const json* cert = c.extra.find("certificate")) {
      for (const auto& d : disproved_numbers(*cert)) disproved.push_back("`" + c.id + "` " + d);
      if (const std::size_t n = ruled_out_count(*cert)) {
        ruled_out += n;
        ruled_out_in.push_back("`" + c.id + "`");
      }
    }
  if (!disproved.empty()) {
    out += "**Printed numbers disproved**\n\n";
    for (const auto& d : disproved) out += md::wrap("- " + d, 118, "  ") + "\n";
    out += "\n";
  }
  if (ruled_out) {
    std::string in;
    for (const auto& s : ruled_out_in) in += (in.empty() ? "" : ", ") + s;
    out += md::wrap("Other readings of the chapter's formulas, ruled out on purpose (they show that only the "
                    "chapter's reading reproduces its figures): " + std::to_string(ruled_out) + ", in " + in + ".") +
           "\n\n";
  }
  std::vector<const property_result*> bad;
  for (const auto& p : r.properties)
    if (p.verdict != verdict::passed) bad.push_back(&p);
  if (!bad.empty()) {
    out += "**Properties that did not pass**\n\n";
    for (const auto* p : bad) out += "- `" + p->id + "`: " + to_string(p->verdict) + "\n";
    out += "\n";
  }

  // One subsection per claim, grouped by chapter section in order of appearance.
  std::vector<std::string> sections;
  for (const auto& c : r.claims)
    if (std::find(sections.begin(), sections.end(), c.section) == sections.end()) sections.push_back(c.section);
  for (const auto& section : sections) {
    out += md::heading(2, section);
    for (const auto& c : r.claims) {
      if (c.section != section) continue;
      const bool plain = c.result == verdict::holds;
      out += md::heading(3, "`" + c.id + "` · " + (plain ? std::string("holds") : "**" + std::string(to_string(c.result)) + "**"));
      out += md::wrap("Checked: " + c.checked) + "\n\n";
      if (c.qualification) out += md::wrap("Qualification: " + md::prose(*c.qualification)) + "\n\n";
      if (c.values.size() || c.printed.size()) {
        md::table t({"value", "computed", "printed"});
        for (const auto& kv : c.values.items()) {
          const json* p = c.printed.find(kv.first);
          t.row({"`" + kv.first + "`", markdown_cell(shown(kv.second)), p ? markdown_cell(field_text(c.printed, kv.first.c_str())) : ""});
        }
        for (const auto& kv : c.printed.items())
          if (!c.values.find(kv.first)) t.row({"`" + kv.first + "`", "—", markdown_cell(field_text(c.printed, kv.first.c_str()))});
        out += t.str() + "\n";
      }
      for (const auto& kv : c.extra.items()) {
        out += md::heading(4, kv.first);
        out += kv.first == "certificate" ? certificate_table(kv.second) : nested_list(kv.second, 0);
        out += "\n";
      }
    }
  }

  out += md::heading(2, "Properties (random cases, RapidCheck)");
  md::table t({"id", "verdict", "cases", "seed"});
  for (const auto& p : r.properties)
    t.row({"`" + p.id + "`", p.verdict == verdict::passed ? std::string(to_string(p.verdict)) : "**" + std::string(to_string(p.verdict)) + "**", md::num(p.cases), p.seed});
  out += t.str() + "\n";
  for (const auto& p : r.properties) {
    out += md::heading(3, "`" + p.id + "`");
    out += md::wrap("Law: " + p.law) + "\n\n" + md::wrap("Tolerance: " + p.tolerance) + "\n\n";
    if (p.counterexample) out += "Counterexample:\n\n```\n" + *p.counterexample + "\n```\n\n";
    if (p.replay) out += "Replay: `" + *p.replay + "`\n\n";
  }
  while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

}  // namespace pv::reports
