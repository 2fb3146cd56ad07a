// claims.md for people: the answer first, short figures, one
// subsection per claim, "ruled out" for the readings rejected on purpose.
#include "reports/claims_report.h"

#include <gtest/gtest.h>

#include <sstream>

namespace reports_claims_report_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::json;
using pv::verdict;

json cert_entry(const std::string& printed, const std::string& lo, const std::string& hi, const std::string& v,
                bool rejected) {
  json e = json::object();
  e.set("enclosure", json::array().push(json::string(lo)).push(json::string(hi)));
  e.set("printed", json::string(printed));
  e.set("verdict", json::string(v));
  e.set("expected", json::string(v == "proved" ? "proved" : "disproved"));
  e.set("checks", json::string("the printed figure against an enclosure"));
  e.set("rule", json::string("rounds at 3 decimals"));
  e.set("formula", json::string("f"));
  if (v != "proved") e.set("why", json::string("outside"));
  if (rejected) e.set("rejected_reading", json::boolean(true));
  return e;
}

pv::report sample() {
  pv::report r;
  r.version = "0.1.0";
  r.precision_bits = 257;
  r.seed = "1";
  pv::claim_result a;
  a.id = "perm.six-cells";
  a.section = "Opening";
  a.checked = "six cells";
  a.values.set("max_abs_diff_hp", json::string("1.7272337110188889250772703725600799142232e-77"));
  a.values.set("max_ulps_f64", json::integer(3));
  a.printed.set("max_abs_diff_hp", json::string("0"));
  a.result = verdict::holds_qualified;
  a.qualification = "exact in real arithmetic (difference 1.7272337110188889e-77); not bit for bit";
  a.summary = "not bit for bit in IEEE: 3 ulps";
  pv::claim_result b;
  b.id = "sinusoid.learned-similar";
  b.section = "History";
  b.checked = "nothing computable";
  b.result = verdict::not_checkable;
  b.qualification = "a training experiment; its data are outside the harness";
  pv::claim_result c;
  c.id = "sinusoid.wavelengths";
  c.section = "History";
  c.checked = "wavelengths";
  c.result = verdict::holds;
  json cert = json::object();
  cert.set("first", cert_entry("6.283", "6.2831853071795864769", "6.2831853071795864770", "proved", false));
  cert.set("wavelength_last (d = 512)",
           cert_entry("62831.853", "6.0611477166261057e4", "6.0611477166261058e4", "disproved", false));
  cert.set("dot [other_reading]", cert_entry("0.123", "-0.0751617", "-0.0751616", "disproved", true));
  c.extra.set("certificate", cert);
  r.claims = {a, b, c};
  pv::property_result p;
  p.id = "attention.law";
  p.law = "a law";
  p.tolerance = "a bound";
  p.verdict = verdict::passed;
  p.cases = 1000;
  p.seed = "42";
  r.properties = {p};
  return r;
}

TEST(ClaimsMarkdown, AtAGlanceComesFirstAndNamesWhatDoesNotSimplyHold) {
  const std::string md = pv::reports::to_markdown(sample());
  const auto glance = md.find("## At a glance");
  ASSERT_NE(glance, std::string::npos) << md;
  EXPECT_LT(glance, md.find("## Opening"));
  const std::string head = md.substr(glance, md.find("## Opening") - glance);
  EXPECT_NE(head.find("3 claims: 1 hold, 1 hold with a qualification, 1 cannot be checked, 0 fail"),
            std::string::npos) << head;
  EXPECT_NE(head.find("`perm.six-cells`: not bit for bit in IEEE: 3 ulps"), std::string::npos) << head;
  // without a summary, the qualification's first clause
  EXPECT_NE(head.find("`sinusoid.learned-similar`: a training experiment\n"), std::string::npos) << head;
  // the disproved printed number, but not the reading ruled out on purpose
  EXPECT_NE(head.find("`wavelength_last (d = 512)`: printed 62831.853, exact value 6.061e+04"), std::string::npos)
      << head;
  EXPECT_EQ(head.find("`dot [other_reading]`"), std::string::npos) << head;
  EXPECT_NE(head.find("ruled out on purpose"), std::string::npos) << head;
}

TEST(ClaimsMarkdown, FiguresAtFourDigitsIntegersAsIntegersRuledOutReadings) {
  const std::string md = pv::reports::to_markdown(sample());
  EXPECT_NE(md.find("| `max_abs_diff_hp` | 1.727e-77 | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `max_ulps_f64` | 3 |  |"), std::string::npos) << md;
  EXPECT_EQ(md.find("1.7272337"), std::string::npos) << "a figure with every digit reached claims.md";
  EXPECT_NE(md.find("### `perm.six-cells` · **holds-qualified**"), std::string::npos) << md;
  EXPECT_NE(md.find("| `dot [other_reading]` | 0.123 | -0.07516 | ruled out |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `wavelength_last (d = 512)` | 62831.853 | 6.061e+04 | **disproved** |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| `first` | 6.283 | 6.283 | proved |"), std::string::npos) << md;
  // the verdict still comes from the data: a rejected reading that is not disproved is not "ruled out"
  auto r = sample();
  json cert = *r.claims[2].extra.find("certificate");
  cert.set("dot [other_reading]", cert_entry("0.123", "0.1229", "0.1231", "undecided", true));
  r.claims[2].extra.set("certificate", cert);
  EXPECT_EQ(pv::reports::to_markdown(r).find("ruled out |"), std::string::npos);
}

TEST(ClaimsMarkdown, ProseLinesStayReadable) {
  auto r = sample();
  r.claims[0].checked = std::string(50, 'x') + " " + std::string(300, 'a').replace(10, 1, " ").replace(200, 1, " ");
  for (int i = 0; i < 40; ++i) r.claims[0].checked += " word" + std::to_string(i);
  std::istringstream in(pv::reports::to_markdown(r));
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("|", 0) != 0 && line.find(std::string(150, 'a')) == std::string::npos) {
      EXPECT_LE(line.size(), 120u) << line;
    }
}

}  // namespace

namespace {

TEST(ClaimsMarkdown, NestedDetailsKeepTheirIndentWhenWrapped) {
  auto r = sample();
  json proof = json::object(), inner = json::object();
  std::string longtext;
  for (int i = 0; i < 40; ++i) longtext += "word" + std::to_string(i) + " ";
  inner.set("why", json::string(longtext));
  proof.set("exact", inner);
  r.claims[0].extra.set("proof", proof);
  const std::string md = pv::reports::to_markdown(r);
  EXPECT_NE(md.find("- exact:\n  - why: word0 word1"), std::string::npos) << md;
  EXPECT_NE(md.find("\n    word"), std::string::npos) << md;  // continuation under its item
}

}  // namespace

}  // namespace reports_claims_report_test
