// Every claim of docs/claims.md (and of ../shared/CLAIMS.md, where present)
// has a registered claim under the section the table gives, the catalogue
// lists exactly those ids, and none reports "not implemented".
#include "claims_test_util.h"
#include "reports/claims_report.h"
#include "support/verify_run.h"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace pv::claims::test {
namespace claims_catalogue_test {  // this file's names: a unity build compiles several test files as one
namespace {

/// Backticked ids in the first column of the claim tables (everything before
/// the core-laws section, whose ids are properties), with the second column.
struct catalogue_row {
  std::string id, place;
};
std::vector<catalogue_row> claim_rows_of(const std::string& text) {
  std::vector<catalogue_row> rows;
  std::istringstream in(text);
  std::string line;
  const std::regex row(R"(^\|\s*`([a-z0-9_.-]+)`\s*\|\s*([^|]*?)\s*\|)");
  while (std::getline(in, line)) {
    if (line.rfind("## The core laws", 0) == 0) break;
    std::smatch m;
    if (std::regex_search(line, m, row)) rows.push_back({m[1], m[2]});
  }
  return rows;
}

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  if (!f) return {};
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// The ids of `rows` against the catalogue and the registry: each once, each
/// registered, none of the catalogue missing.
void expect_same_ids(const std::vector<catalogue_row>& rows, const std::string& where) {
  std::set<std::string> listed;
  for (const auto& r : rows) EXPECT_TRUE(listed.insert(r.id).second) << where << " lists " << r.id << " twice";
  std::set<std::string> catalogued;
  for (const auto& e : catalogue()) catalogued.insert(e.id);
  std::set<std::string> registered;
  for (const auto& d : claim_registry()) registered.insert(d.id);
  for (const auto& id : listed) {
    EXPECT_TRUE(catalogued.count(id)) << where << ": " << id << " is missing from registry.cpp's catalogue";
    EXPECT_TRUE(registered.count(id)) << where << ": " << id << " has no PV_CLAIM";
  }
  for (const auto& id : catalogued) EXPECT_TRUE(listed.count(id)) << id << " is catalogued but not in " << where;
}

// docs/claims.md is the project's own catalogue (ids, place in the chapter,
// paraphrase): it is in every clone, so this test always runs.
TEST(ClaimsCatalogue, DocsCatalogueListsEveryClaimWithItsSection) {
  const std::string path = std::string(POSVERIFY_SOURCE_DIR) + "/docs/claims.md";
  const std::string text = read_text(path);
  ASSERT_FALSE(text.empty()) << path << " is absent or empty";
  auto rows = claim_rows_of(text);
  ASSERT_EQ(rows.size(), catalogue().size()) << path << "'s table and registry.cpp's catalogue differ in length";
  expect_same_ids(rows, path);
  for (const auto& r : rows) EXPECT_EQ(r.place, section_of(r.id)) << path << ": the place of " << r.id;
}

// The chapter's catalogue beside the repository (../shared/CLAIMS.md, where a
// checkout has it) names the same ids as docs/claims.md.
TEST(ClaimsCatalogue, EveryIdOfClaimsMdIsImplemented) {
  const std::string path = std::string(POSVERIFY_SOURCE_DIR) + "/../shared/CLAIMS.md";
  const std::string text = read_text(path);
  if (text.empty()) GTEST_SKIP() << path << " is absent (docs/claims.md is checked by the test above)";
  auto rows = claim_rows_of(text);
  ASSERT_EQ(rows.size(), 31u) << "CLAIMS.md's tables changed: update the catalogue and docs/claims.md";
  expect_same_ids(rows, path);
}

/// Significant digits of a decimal string such as "8.66e-01" (0 for "0").
int significant_digits(const std::string& s) {
  std::string mant = s.substr(0, s.find_first_of("eE"));
  std::string digits;
  for (char c : mant)
    if (c >= '0' && c <= '9') digits += c;
  auto first = digits.find_first_not_of('0');
  return first == std::string::npos ? 0 : static_cast<int>(digits.size() - first);
}

/// Every string value is a decimal number with >= 30 significant digits (or
/// an exact "0"); integers, booleans, null and arrays of those pass.
void expect_value_format(const std::string& where, const json& v) {
  switch (v.type()) {
    case json::kind::string: {
      const std::string& s = v.as_string();
      const std::regex number(R"(^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$)");
      ASSERT_TRUE(std::regex_match(s, number)) << where << " = '" << s << "' is not a decimal number";
      EXPECT_TRUE(s == "0" || significant_digits(s) >= 30) << where << " = " << s;
      break;
    }
    case json::kind::array:
      for (std::size_t i = 0; i < v.items().size(); ++i)
        expect_value_format(where + "[" + std::to_string(i) + "]", v.items()[i].second);
      break;
    case json::kind::object: ADD_FAILURE() << where << " is an object"; break;
    default: break;  // integer, boolean, null
  }
}

// Judged on the claims of the fixture's `verify` run (tests/support/verify_run.h),
// read back as merge reads a report.
TEST(ClaimsCatalogue, NoClaimReportsNotImplemented) {
  std::vector<claim_result> results;
  try {
    const std::string dir = pv::test::verify_run_dir();
    results = reports::report_of_json(json::parse(pv::test::slurp(dir + "/claims.json")), dir + "/claims.json").claims;
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  ASSERT_EQ(results.size(), catalogue().size());
  for (const auto& r : results) {
    EXPECT_FALSE(r.qualification && r.qualification->find("not implemented") != std::string::npos)
        << r.id;
    EXPECT_FALSE(r.checked.empty() || r.checked == "—") << r.id;
    for (const auto& [name, v] : r.values.items())
      if (name != "property" && name != "property_verdict") expect_value_format(r.id + "." + name, v);
    if (r.result == verdict::holds_qualified || r.result == verdict::not_checkable ||
        r.result == verdict::fails) {
      EXPECT_TRUE(r.qualification.has_value()) << r.id << " must state why";
    }
  }
}

}  // namespace
}  // namespace claims_catalogue_test
}  // namespace pv::claims::test
