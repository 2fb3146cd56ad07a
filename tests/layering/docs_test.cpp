// What the README and docs/architecture.md say about the layout is what the
// tree holds: every stage of cmake/stages.cmake has its row in both layout
// tables, the counts the README gives are counted from the tree, and no
// comment of src/ or tests/ dates a file by a ticket instead of saying what
// it does.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace layering_docs_test {  // this file's names: a unity build compiles several test files as one

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> stages() {
  std::ifstream in(POSVERIFY_LAYERS);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (const auto c = line.find(':'); c != std::string::npos) out.push_back(line.substr(0, c));
  return out;
}

const fs::path& root() {
  static const fs::path r(POSVERIFY_SOURCE_DIR);
  return r;
}

/// The number the text gives before `what` ("42 mutants"), or -1.
long number_before(const std::string& text, const std::string& what) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("([0-9]+) " + what))) return -1;
  return std::stol(m[1]);
}

/// A comment that names a ticket ("issue 8", "Issue 4:", "ticket #3").
const std::regex& ticket_rule() {
  static const std::regex r(R"((^|[^A-Za-z])[Ii]ssues? [0-9]+|[Tt]icket [0-9#])");
  return r;
}

long files_in(const fs::path& dir, const std::string& ext) {
  long n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ext;
  return n;
}

TEST(LayoutDocs, EveryStageHasItsRowInTheReadmeAndTheArchitecture) {
  const std::string readme = slurp(root() / "README.md"), arch = slurp(root() / "docs/architecture.md");
  ASSERT_FALSE(stages().empty());
  for (const auto& s : stages()) {
    const std::string cell = "| `src/" + s + "/`";
    EXPECT_NE(readme.find(cell), std::string::npos) << "README.md's layout table has no row " << cell;
    EXPECT_NE(arch.find(cell), std::string::npos) << "docs/architecture.md has no row " << cell;
  }
}

TEST(LayoutDocs, TheReadmeCountsAreCountedFromTheTree) {
  const std::string readme = slurp(root() / "README.md");
  const long mutants = files_in(root() / "plugins/mutants", ".c");
  const long panel = files_in(root() / "plugins/panel", ".c") + 2;  // and the built-ins flash_float, attend_tiled
  EXPECT_GT(mutants, 10);
  EXPECT_EQ(number_before(readme, "mutants"), mutants) << "README.md: \"N mutants\"";
  EXPECT_EQ(number_before(readme, "members"), panel) << "README.md: \"N members\" of the panel";
  EXPECT_EQ(number_before(readme, "stages"), long(stages().size())) << "README.md: \"N stages\"";
}

TEST(LayoutDocs, NoCommentDatesAFileByATicket) {
  const std::regex& ticket = ticket_rule();
  std::string bad;
  for (const char* top : {"src", "tests", "bench", "fuzz", "cmake", "include", "plugins"})
    for (const auto& e : fs::recursive_directory_iterator(root() / top)) {
      const auto ext = e.path().extension();
      if (!e.is_regular_file() || (ext != ".h" && ext != ".cpp" && ext != ".c" && ext != ".cmake" && ext != ".py"))
        continue;
      if (fs::relative(e.path(), root()) == fs::path("tests/layering/docs_test.cpp")) continue;  // the rule's own examples
      std::ifstream in(e.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n)
        if (std::regex_search(line, ticket))
          bad += fs::relative(e.path(), root()).string() + ":" + std::to_string(n) + ": " + line + "\n";
    }
  EXPECT_TRUE(bad.empty()) << "say what the code does, and cite the chapter, a paper or a formula:\n" << bad;
}

/// The namespace a test file keeps its names in: its path below tests/,
/// "/" as "_" (tests/blackbox/shapes_test.cpp: blackbox_shapes_test).
std::string own_namespace(const fs::path& rel) {
  std::string n = rel.lexically_relative("tests").replace_extension().string();
  for (char& c : n)
    if (c == '/') c = '_';
  return n;
}

// A unity build (POSVERIFY_UNITY, CMakeLists.txt) compiles several test files
// as one, so two files' helpers of the same name (builtin(), slurp(), run())
// would clash, or one would silently take the other's: each file keeps its
// names in a namespace named after its path.
TEST(LayoutDocs, EveryTestFileKeepsItsNamesInANamespaceOfItsOwn) {
  EXPECT_EQ(own_namespace("tests/blackbox/shapes_test.cpp"), "blackbox_shapes_test");
  std::string bad;
  long n = 0;
  for (const auto& e : fs::recursive_directory_iterator(root() / "tests")) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || name.size() < 9 || name.substr(name.size() - 9) != "_test.cpp") continue;
    const fs::path rel = fs::relative(e.path(), root());
    const std::string ns = own_namespace(rel);
    ++n;
    if (slurp(e.path()).find("\nnamespace " + ns + " {") == std::string::npos)
      bad += rel.string() + ": no namespace " + ns + "\n";
  }
  EXPECT_GT(n, 50);
  EXPECT_TRUE(bad.empty()) << bad;
}

TEST(LayoutDocs, TheTicketRuleCatchesATicket) {
  const std::regex& ticket = ticket_rule();
  EXPECT_TRUE(std::regex_search(std::string("// the shapes law (issue 8, items 2-4)"), ticket));
  EXPECT_TRUE(std::regex_search(std::string("// Issue 4: certified numbers"), ticket));
  EXPECT_FALSE(std::regex_search(std::string("// a known issue of torch 1.13 (pytorch#144858)"), ticket));
}

}  // namespace

}  // namespace layering_docs_test
