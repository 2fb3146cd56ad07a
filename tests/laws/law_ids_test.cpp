// Every law is written once, in src/laws/: its id is declared there
// (`inline constexpr const char* id = "..."`) and nowhere else. This test
// collects the ids declared in src/laws/ and the retired ids of
// laws/aliases.h, and fails, naming file and line, where a string literal of
// another file of src/ equals one of them or begins with one followed by "["
// (a qualified id such as "attention.shapes[float32]"). Comments do not count.
// It also checks that the law headers do not share an id or a namespace (two
// headers with the same pv::laws::X would define X::id twice).
#include "laws/aliases.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace laws_law_ids_test {  // this file's names: a unity build compiles several test files as one

namespace {

namespace fs = std::filesystem;

const fs::path src_dir = fs::path(POSVERIFY_SOURCE_DIR) / "src";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A string literal of a C++ source and the line it starts on.
struct literal {
  std::size_t line;
  std::string text;  ///< the characters between the quotes, as written
};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The string literals of a C++ source: comments skipped, character literals
/// and digit separators skipped, raw strings (R"d(...)d") read whole.
std::vector<literal> string_literals(const std::string& s) {
  std::vector<literal> out;
  std::size_t line = 1, i = 0;
  const std::size_t n = s.size();
  auto advance_to = [&](std::size_t j) {  // counts the newlines skipped
    for (; i < j && i < n; ++i)
      if (s[i] == '\n') ++line;
  };
  while (i < n) {
    const char c = s[i];
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      const std::size_t e = s.find('\n', i);
      advance_to(e == std::string::npos ? n : e);
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      const std::size_t e = s.find("*/", i + 2);
      advance_to(e == std::string::npos ? n : e + 2);
    } else if (c == '"') {
      std::size_t b = i;  // the identifier right before the quote: a prefix?
      while (b > 0 && ident_char(s[b - 1])) --b;
      const std::string prefix = s.substr(b, i - b);
      const std::size_t start = line;
      if (prefix == "R" || prefix == "u8R" || prefix == "uR" || prefix == "UR" || prefix == "LR") {
        const std::size_t open = s.find('(', i);
        const std::string close = ")" + s.substr(i + 1, open - i - 1) + "\"";
        const std::size_t e = s.find(close, open);
        const std::size_t end = e == std::string::npos ? n : e;
        out.push_back({start, s.substr(open + 1, end - open - 1)});
        advance_to(e == std::string::npos ? n : e + close.size());
      } else {
        std::size_t j = i + 1;
        while (j < n && s[j] != '"' && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
        out.push_back({start, s.substr(i + 1, std::min(j, n) - i - 1)});
        advance_to(j + 1);
      }
    } else if (c == '\'') {
      std::size_t b = i;
      while (b > 0 && ident_char(s[b - 1])) --b;
      if (b < i && std::isdigit(static_cast<unsigned char>(s[b]))) {  // 1'000: a digit separator
        ++i;
        continue;
      }
      std::size_t j = i + 1;
      while (j < n && s[j] != '\'' && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      advance_to(j + 1);
    } else {
      advance_to(i + 1);
    }
  }
  return out;
}

/// Whether a literal names the law `id`: the id itself, or the id qualified
/// by a dtype or configuration ("id[...]").
bool names(const std::string& text, const std::string& id) {
  return text == id || (text.size() > id.size() && text.compare(0, id.size(), id) == 0 && text[id.size()] == '[');
}

struct finding {
  std::string file;
  std::size_t line;
  std::string text, id;
};

/// Every literal of `source` that names one of `ids`, as findings in `file`.
std::vector<finding> scan(const std::string& file, const std::string& source, const std::set<std::string>& ids) {
  std::vector<finding> f;
  for (const auto& l : string_literals(source))
    for (const auto& id : ids)
      if (names(l.text, id)) f.push_back({file, l.line, l.text, id});
  return f;
}

/// The law headers of src/laws/ (every file below it but aliases.h).
std::vector<fs::path> law_headers() {
  std::vector<fs::path> v;
  for (const auto& e : fs::recursive_directory_iterator(src_dir / "laws"))
    if (e.is_regular_file() && e.path().filename() != "aliases.h") v.push_back(e.path());
  return v;
}

/// id -> the header declaring it (a second declaration fails the test).
std::map<std::string, std::string> declared_ids() {
  static const std::regex decl(R"re(inline\s+constexpr\s+const\s+char\s*\*\s*id\s*=\s*"([^"]+)")re");
  std::map<std::string, std::string> ids;
  for (const auto& p : law_headers()) {
    const std::string s = slurp(p);
    for (std::sregex_iterator it(s.begin(), s.end(), decl), end; it != end; ++it) {
      const std::string id = (*it)[1];
      const auto [at, fresh] = ids.emplace(id, p.lexically_relative(src_dir).string());
      EXPECT_TRUE(fresh) << "law id " << id << " declared in " << at->second << " and in "
                         << p.lexically_relative(src_dir).string();
    }
  }
  return ids;
}

/// Every id to look for: the declared ones and the retired ones of aliases.h.
std::set<std::string> all_ids() {
  std::set<std::string> ids;
  for (const auto& [id, file] : declared_ids()) ids.insert(id);
  for (const auto& a : pv::laws::aliases) ids.insert(a.old_id);
  return ids;
}

TEST(LawIds, EveryLawIdIsWrittenOnlyInSrcLaws) {
  const auto ids = all_ids();
  ASSERT_GE(ids.size(), 14u) << "the law headers were not found under " << src_dir;
  std::vector<finding> found;
  for (const auto& e : fs::recursive_directory_iterator(src_dir)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = e.path().lexically_relative(src_dir).generic_string();
    if (rel.compare(0, 5, "laws/") == 0) continue;
    for (auto& f : scan(rel, slurp(e.path()), ids)) found.push_back(f);
  }
  for (const auto& f : found)
    ADD_FAILURE() << "src/" << f.file << ":" << f.line << ": the literal \"" << f.text << "\" names the law "
                  << f.id << ": use the id of its header in src/laws/";
}

TEST(LawIds, TheScannerFindsALiteralIdAndSkipsComments) {
  const std::set<std::string> ids = {"attention.shapes", "sinusoid.shift_map"};
  const std::string src =
      "// \"attention.shapes\" in a comment\n"
      "/* \"attention.shapes[float32]\"\n   still a comment */\n"
      "law_run L(cx, \"attention.shapes\", type_name<T>(), \"\",\n"          // line 4
      "          \"attention.shapes_of_things\");  // not the id\n"
      "const char c = '\"'; int big = 1'000'000;\n"
      "auto r = R\"x(raw \"attention.shapes\" inside)x\";\n"
      "std::string old = \"sinusoid.shift_map[float32]\";\n";          // line 8
  const auto f = scan("a.cpp", src, ids);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].line, 4u);
  EXPECT_EQ(f[0].id, "attention.shapes");
  EXPECT_EQ(f[1].line, 8u);
  EXPECT_EQ(f[1].text, "sinusoid.shift_map[float32]");
  // a raw string that is an id is found too
  EXPECT_EQ(scan("b.cpp", "f(R\"(attention.shapes)\");", ids).size(), 1u);
}

TEST(LawIds, AliasesNameCurrentLaws) {
  const auto ids = declared_ids();
  for (const auto& a : pv::laws::aliases) {
    EXPECT_TRUE(ids.count(a.current_id)) << a.old_id << " -> " << a.current_id << ": no law declares it";
    EXPECT_FALSE(ids.count(a.old_id)) << a.old_id << " is retired but a law still declares it";
  }
}

TEST(LawIds, EveryLawHeaderHasItsOwnNamespace) {
  static const std::regex ns(R"re(namespace\s+pv::laws::(\w+)\s*\{)re");
  std::map<std::string, std::string> owner;
  for (const auto& p : law_headers()) {
    const std::string s = slurp(p);
    std::smatch m;
    if (!std::regex_search(s, m, ns)) continue;
    const auto [at, fresh] = owner.emplace(m[1], p.lexically_relative(src_dir).string());
    EXPECT_TRUE(fresh) << "pv::laws::" << m[1] << " is the namespace of " << at->second << " and of "
                       << p.lexically_relative(src_dir).string();
  }
  EXPECT_GE(owner.size(), 14u);
}

}  // namespace

}  // namespace laws_law_ids_test
