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
  for (const auto& d : registry()) registered.insert(d.id);
  for (const auto& id : ids) {
    EXPECT_TRUE(catalogued.count(id)) << id << " is missing from registry.cpp's catalogue";
    EXPECT_TRUE(registered.count(id)) << id << " has no PV_CLAIM";
  }
  EXPECT_EQ(catalogued.size(), ids.size()) << "the catalogue lists ids CLAIMS.md does not";
}

TEST(ClaimsCatalogue, NoClaimReportsNotImplemented) {
  auto results = run_all(context{});
  ASSERT_EQ(results.size(), catalogue().size());
  for (const auto& r : results) {
    EXPECT_FALSE(r.qualification && r.qualification->find("not implemented") != std::string::npos)
        << r.id;
    EXPECT_FALSE(r.checked.empty() || r.checked == "—") << r.id;
    if (r.result == verdict::holds_qualified || r.result == verdict::not_checkable ||
        r.result == verdict::fails) {
      EXPECT_TRUE(r.qualification.has_value()) << r.id << " must state why";
    }
  }
}

}  // namespace
}  // namespace pv::claims::test
