// The includes written in src/ follow the pipeline (cmake/stages.cmake,
// docs/architecture.md): each names, from the one include root src/, its own
// stage or a stage its stage uses; none goes through `../` or is bare. The
// build refuses an upward include by itself (layering.upward_includes_do_not_compile);
// this test names every offending line at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace layering_includes_test {  // this file's names: a unity build compiles several test files as one

namespace {

namespace fs = std::filesystem;

struct layers {
  std::vector<std::string> order;                         ///< as declared
  std::map<std::string, std::set<std::string>> uses;      ///< transitively
};

layers read_layers(const std::string& path) {
  std::ifstream in(path);
  layers L;
  std::map<std::string, std::vector<std::string>> direct;
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string s = line.substr(0, colon);
    L.order.push_back(s);
    std::istringstream deps(line.substr(colon + 1));
    for (std::string d; deps >> d;) direct[s].push_back(d);
  }
  for (const auto& s : L.order) {
    std::vector<std::string> todo = direct[s];
    auto& seen = L.uses[s];
    while (!todo.empty()) {
      const std::string x = todo.back();
      todo.pop_back();
      if (seen.insert(x).second) todo.insert(todo.end(), direct[x].begin(), direct[x].end());
    }
  }
  return L;
}

/// "" when a file of stage `stage` may write `#include "inc"`; otherwise why not.
std::string refusal(const layers& L, const std::string& stage, const std::string& inc) {
  if (inc.find("..") != std::string::npos || inc.rfind("./", 0) == 0) return "goes through a relative path";
  const auto slash = inc.find('/');
  if (slash == std::string::npos) return "is bare: write it from the root src/ (\"" + stage + "/" + inc + "\")";
  const std::string first = inc.substr(0, slash);
  if (inc == "posverify/impl.h")  // the C interface (include/), through the sandbox
    return stage == "sandbox" || L.uses.at(stage).count("sandbox") ? "" : "is the plugin interface, which only the sandbox and the stages using it see";
  if (!L.uses.count(first)) return "names no stage (" + first + ")";
  if (first == stage || L.uses.at(stage).count(first)) return "";
  const auto pos = [&](const std::string& s) { return std::find(L.order.begin(), L.order.end(), s) - L.order.begin(); };
  return std::string(pos(first) > pos(stage) ? "runs back up the pipeline: " : "reaches sideways: ") + stage +
         " does not use " + first;
}

const layers& the_layers() {
  static const layers L = read_layers(POSVERIFY_LAYERS);
  return L;
}

TEST(Layering, TheStagesAreDeclared) {
  const auto& L = the_layers();
  ASSERT_GE(L.order.size(), 10u) << POSVERIFY_LAYERS;
  EXPECT_EQ(L.order.front(), "core");
  EXPECT_EQ(L.order.back(), "cli");
  for (const auto& s : L.order) EXPECT_TRUE(fs::is_directory(fs::path(POSVERIFY_SOURCE_DIR) / "src" / s)) << s;
  // every folder of src/ is a stage
  for (const auto& e : fs::directory_iterator(fs::path(POSVERIFY_SOURCE_DIR) / "src"))
    if (e.is_directory()) {
      EXPECT_TRUE(L.uses.count(e.path().filename().string())) << e.path() << " is no stage of cmake/stages.cmake";
    }
}

TEST(Layering, TheRuleRefusesWhatItShould) {
  const auto& L = the_layers();
  EXPECT_EQ(refusal(L, "cli", "core/json.h"), "");
  EXPECT_EQ(refusal(L, "blackbox", "laws/rope/shift_invariance.h"), "");
  EXPECT_EQ(refusal(L, "blackbox", "posverify/impl.h"), "");
  EXPECT_NE(refusal(L, "laws", "cli/options.h"), "");
  EXPECT_NE(refusal(L, "blackbox", "reports/markdown.h"), "");
  EXPECT_NE(refusal(L, "claims", "properties/runner.h"), "");  // sideways
  EXPECT_NE(refusal(L, "numerics", "posverify/impl.h"), "");
  EXPECT_NE(refusal(L, "core", "../reference/mp.h"), "");
  EXPECT_NE(refusal(L, "core", "json.h"), "");
  EXPECT_NE(refusal(L, "core", "posverify_impl.h"), "");
}

TEST(Layering, EveryIncludeOfSrcNamesAStageItsStageUses) {
  const auto& L = the_layers();
  const fs::path src = fs::path(POSVERIFY_SOURCE_DIR) / "src";
  std::vector<std::string> bad;
  std::size_t files = 0, includes = 0;
  for (const auto& e : fs::recursive_directory_iterator(src)) {
    const auto ext = e.path().extension();
    if (!e.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
    ++files;
    const std::string rel = fs::relative(e.path(), src).string();
    const std::string stage = rel.substr(0, rel.find('/'));
    std::ifstream in(e.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      const auto h = line.find_first_not_of(" \t");
      if (h == std::string::npos || line[h] != '#') continue;
      const auto inc = line.find("include", h);
      const auto q = line.find('"', h);
      if (inc == std::string::npos || q == std::string::npos || line.find_first_not_of(" \t", h + 1) != inc) continue;
      const auto q2 = line.find('"', q + 1);
      const std::string target = line.substr(q + 1, q2 - q - 1);
      ++includes;
      const std::string why = L.uses.count(stage) ? refusal(L, stage, target) : "is in a folder that is no stage";
      if (!why.empty()) bad.push_back("src/" + rel + ":" + std::to_string(n) + ": \"" + target + "\" " + why);
    }
  }
  EXPECT_GT(files, 100u);
  EXPECT_GT(includes, 300u);
  std::string all;
  for (const auto& b : bad) all += b + "\n";
  EXPECT_TRUE(bad.empty()) << all;
}

}  // namespace

}  // namespace layering_includes_test
