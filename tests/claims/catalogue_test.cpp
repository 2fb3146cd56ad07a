// Every claim id of ../shared/CLAIMS.md has a registered claim, the
// catalogue lists exactly those ids, and none reports "not implemented".
#include "claims_test_util.h"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace pv::claims::test {
namespace {

/// Backticked ids in the first column of the claim tables (everything before
/// the core-laws section, whose ids are properties).
std::vector<std::string> claim_ids_of(const std::string& text) {
  std::vector<std::string> ids;
  std::istringstream in(text);
  std::string line;
  const std::regex row(R"(^\|\s*`([a-z0-9_.-]+)`\s*\|)");
  while (std::getline(in, line)) {
    if (line.rfind("## The core laws", 0) == 0) break;
    std::smatch m;
    if (std::regex_search(line, m, row)) ids.push_back(m[1]);
  }
  return ids;
}

TEST(ClaimsCatalogue, EveryIdOfClaimsMdIsImplemented) {
  const std::string path = std::string(POSVERIFY_SOURCE_DIR) + "/../shared/CLAIMS.md";
  std::ifstream f(path);
  if (!f) GTEST_SKIP() << path << " is absent";
  std::stringstream ss;
  ss << f.rdbuf();
  auto ids = claim_ids_of(ss.str());
  ASSERT_EQ(ids.size(), 31u) << "CLAIMS.md's tables changed: update the catalogue";
  std::set<std::string> catalogued;
  for (const auto& e : catalogue()) catalogued.insert(e.id);
  std::set<std::string> registered;
  for (const auto& d : claim_registry()) registered.insert(d.id);
  for (const auto& id : ids) {
    EXPECT_TRUE(catalogued.count(id)) << id << " is missing from registry.cpp's catalogue";
    EXPECT_TRUE(registered.count(id)) << id << " has no PV_CLAIM";
  }
  EXPECT_EQ(catalogued.size(), ids.size()) << "the catalogue lists ids CLAIMS.md does not";
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

TEST(ClaimsCatalogue, NoClaimReportsNotImplemented) {
  auto results = run_claims(claim_context{});
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
}  // namespace pv::claims::test
