// JUnit XML of a report, for the test reporters of CI systems (GitLab,
// Jenkins, GitHub actions that read JUnit): one test case per law, dtype and
// configuration of a `check` report, per claim and per property of a
// `verify` report. A failure carries the finding, the counterexample and the
// command that replays it. Built from the report's JSON, so that a run, a
// shard and a merged report (posverify merge) all give the same XML.
#pragma once

#include "core/json.h"
#include "core/json_read.h"
#include "core/text.h"

#include <string>
#include <string_view>
#include <vector>

namespace pv::junit {

/// s as XML character data or an attribute value: valid UTF-8 (text.h), the
/// characters XML 1.0 does not allow (C0 controls but tab, newline and
/// return; U+FFFE, U+FFFF) shown as \xNN escapes or U+FFFD, markup escaped.
inline std::string escape(std::string_view raw, bool attribute = false) {
  static const char* hex = "0123456789abcdef";
  const std::string s = text::valid_utf8(raw);
  std::string o;
  o.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == 0xEF && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xBF &&
        (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xBE) {
      o += "\xEF\xBF\xBD";
      i += 2;
    } else if (c == '&') o += "&amp;";
    else if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '"') o += "&quot;";
    else if (c == '\'') o += "&apos;";
    else if (attribute && (c == '\n' || c == '\r' || c == '\t')) o += c == '\n' ? "&#10;" : c == '\r' ? "&#13;" : "&#9;";
    else if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') o += {'\\', 'x', hex[c >> 4], hex[c & 15]};
    else o += static_cast<char>(c);
  }
  return o;
}

/// One test case: passed, failed (message and text) or skipped (message).
struct test_case {
  std::string classname, name;
  enum class outcome { passed, failed, skipped } result = outcome::passed;
  std::string message, text;
};

inline test_case named(std::string classname, std::string name) {
  test_case c;
  c.classname = std::move(classname);
  c.name = std::move(name);
  return c;
}

struct suite {
  std::string name;
  std::vector<test_case> cases;
};

/// `build`: the posverify that wrote the report (reports/build_line.h), a
/// property of every suite; "" for a report that records none.
inline std::string xml(const std::vector<suite>& suites, const std::string& build = "") {
  auto count = [](const suite& s, test_case::outcome w) {
    std::size_t n = 0;
    for (const auto& c : s.cases) n += c.result == w;
    return n;
  };
  std::size_t tests = 0, failures = 0, skipped = 0;
  for (const auto& s : suites)
    tests += s.cases.size(), failures += count(s, test_case::outcome::failed), skipped += count(s, test_case::outcome::skipped);
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"posverify\" tests=\"" +
                  std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\" skipped=\"" +
                  std::to_string(skipped) + "\">\n";
  for (const auto& s : suites) {
    x += "  <testsuite name=\"" + escape(s.name, true) + "\" tests=\"" + std::to_string(s.cases.size()) +
         "\" failures=\"" + std::to_string(count(s, test_case::outcome::failed)) + "\" errors=\"0\" skipped=\"" +
         std::to_string(count(s, test_case::outcome::skipped)) + "\">\n";
    if (!build.empty())
      x += "    <properties>\n      <property name=\"posverify\" value=\"" + escape(build, true) + "\"/>\n    </properties>\n";
    for (const auto& c : s.cases) {
      x += "    <testcase classname=\"" + escape(c.classname, true) + "\" name=\"" + escape(c.name, true) + "\"";
      if (c.result == test_case::outcome::passed) {
        x += "/>\n";
        continue;
      }
      x += ">\n";
      if (c.result == test_case::outcome::failed)
        x += "      <failure message=\"" + escape(c.message, true) + "\" type=\"failure\">" + escape(c.text) +
             "</failure>\n";
      else
        x += "      <skipped message=\"" + escape(c.message, true) + "\"/>\n";
      x += "    </testcase>\n";
    }
    x += "  </testsuite>\n";
  }
  return x + "</testsuites>\n";
}

namespace detail {
inline void line(std::string& t, const std::string& label, const std::string& value) {
  if (!value.empty()) t += label + value + "\n";
}
}  // namespace detail

/// The JUnit XML of a `check` report (it has "laws") or of a `verify`
/// report (it has "claims" and "properties").
inline std::string of_report(const json& r) {
  using detail::line;
  const auto str = json_read::text;
  using outcome = test_case::outcome;
  std::vector<suite> suites;
  const std::string seed = str(r, "seed");
  if (const json* laws = r.find("laws")) {
    const json* impl = r.find("implementation");
    suite s{"posverify check " + (impl ? str(*impl, "name") : std::string()), {}};
    for (const auto& [k, l] : laws->items()) {
      test_case c = named(str(l, "base_id"), str(l, "id"));
      const verdict vd = json_read::verdict_of(l, "the check report: law " + str(l, "id"));
      const std::string v = to_string(vd);
      if (fails_the_run(vd)) {
        c.result = outcome::failed;
        c.message = v + ": " + str(l, "finding");
        std::string t;
        line(t, "law: ", str(l, "law"));
        line(t, "tolerance: ", str(l, "tolerance"));
        line(t, v + ": ", str(l, "finding"));
        line(t, "diagnosis: ", str(l, "diagnosis"));
        line(t, "counterexample:\n", str(l, "counterexample"));
        line(t, "seed: ", str(l, "seed"));
        line(t, "replay: ", str(l, "replay"));
        c.text = t;
      } else if (vd != verdict::passed) {
        c.result = outcome::skipped;
        c.message = v + " (" + str(l, "unsupported_cases") + " cases declined by the library)";
      }
      s.cases.push_back(std::move(c));
    }
    suites.push_back(std::move(s));
    return xml(suites, str(r, "build"));
  }
  if (const json* claims = r.find("claims")) {
    suite s{"posverify verify: claims", {}};
    for (const auto& [k, cl] : claims->items()) {
      test_case c = named("claims." + str(cl, "section"), str(cl, "id"));
      const verdict v = json_read::verdict_of(cl, "the verify report: claim " + str(cl, "id"));
      if (v == verdict::fails) {
        c.result = outcome::failed;
        c.message = "fails: " + str(cl, "qualification");
        std::string t;
        line(t, "checked: ", str(cl, "checked"));
        line(t, "fails: ", str(cl, "qualification"));
        line(t, "values: ", cl.find("values") ? cl.find("values")->dump() : "");
        t += "rerun: posverify verify --seed " + seed + " (the claims' cases are fixed; claims.md has the details)\n";
        c.text = t;
      } else if (v == verdict::not_checkable) {
        c.result = outcome::skipped;
        c.message = "not checkable: " + str(cl, "qualification");
      }
      s.cases.push_back(std::move(c));
    }
    suites.push_back(std::move(s));
  }
  if (const json* props = r.find("properties")) {
    suite s{"posverify verify: properties", {}};
    for (const auto& [k, p] : props->items()) {
      test_case c = named("properties", str(p, "id"));
      const verdict vd = json_read::verdict_of(p, "the verify report: property " + str(p, "id"));
      const std::string v = to_string(vd);
      if (vd != verdict::passed) {
        c.result = outcome::failed;
        c.message = v + " after " + str(p, "cases") + " cases (seed " + str(p, "seed") + ")";
        std::string t;
        line(t, "law: ", str(p, "law"));
        line(t, "tolerance: ", str(p, "tolerance"));
        line(t, "verdict: ", v + " after " + str(p, "cases") + " cases, seed " + str(p, "seed"));
        line(t, "counterexample:\n", str(p, "counterexample"));
        line(t, "replay: ", str(p, "replay"));
        line(t, "rerun: ", str(p, "rerun"));
        c.text = t;
      }
      s.cases.push_back(std::move(c));
    }
    suites.push_back(std::move(s));
  }
  return xml(suites, str(r, "build"));
}

}  // namespace pv::junit
