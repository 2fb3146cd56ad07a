// The one Markdown and number-formatting layer of every report (claims.md,
// the check reports, mutation.md, panel.md, error_budgets.md,
// fault_matrix.md): figures at 4 significant digits, exact integers as
// integers, cells and headings. The JSON beside each report keeps every digit;
// only the Markdown goes through here.
#pragma once

#include "core/json.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pv {

/// s as one cell of a Markdown table: '|' escaped as "\|", newlines as <br>.
std::string markdown_cell(const std::string& s);

namespace md {

/// Significant digits of a figure in Markdown.
inline constexpr int digits = 4;

/// A decimal number's text ("1.7272337110188889e-77", "3.000e+00", "-0.5")
/// for a person: an exact integer of at most 15 digits as that integer ("3"),
/// anything else rounded (half away from zero, on the decimal digits, so that
/// exponents beyond double's range keep their value) to 4 significant digits,
/// in printf's %g layout ("1.727e-77", "0.1234", "6.061e+04"). "inf", "-inf"
/// and "nan" come out as inf, -inf, NaN; text that is not a number is returned
/// unchanged.
std::string num(const std::string& text);
std::string num(double x);
std::string num(std::int64_t x);
inline std::string num(int x) { return num(static_cast<std::int64_t>(x)); }
inline std::string num(long long x) { return num(static_cast<std::int64_t>(x)); }
inline std::string num(unsigned long x) { return std::to_string(x); }
inline std::string num(unsigned long long x) { return std::to_string(x); }

/// A JSON value for a person: integers as integers, numbers (and strings that
/// are numbers) through num(), booleans as yes/no, null as "—", arrays as
/// "[a, b]", objects as "k = v; ...", other strings through prose().
std::string value(const json& v);

/// Free text (a finding, a qualification) with every long figure (more than
/// 5 significant digits, with a fraction or an exponent) shortened by num();
/// integers, short figures, identifiers (float32, v0.1.0) and code spans in
/// backticks are left as they are. The JSON keeps the text with all digits.
std::string prose(const std::string& text);

/// Text that may come from a plugin (its stderr quoted in a finding, a load
/// error) made inert in Markdown that renders inline HTML: every '<' outside a
/// code span becomes "&lt;", so no tag (<script>, <img onerror>), HTML block,
/// comment or autolink can start. Code spans are found as CommonMark finds
/// them (spec 0.31, sections 6.1 and 6.3: a backslash escapes a backtick
/// outside a span; a span is closed by the next backtick run of the same
/// length, else its opening run is literal), and are left as they are: their
/// content is shown literally. Apply before markdown_cell (whose <br> is meant).
std::string untrusted(const std::string& text);

/// A fence for a fenced code block around `content`: backticks, one more
/// than its longest run of backticks and at least three, so no line of the
/// content can close the block early.
std::string fence(const std::string& content);

/// A paragraph broken at spaces into lines of at most `width` characters
/// (a longer word keeps its own line), continuation lines indented by
/// `indent` (for a list item). A break never falls inside a code span, and
/// never puts a word that Markdown would read as a list, heading, quote or
/// table at the start of a line.
std::string wrap(const std::string& text, std::size_t width = 100, const std::string& indent = "");

/// "## title\n\n" for level 2.
std::string heading(int level, const std::string& title);

/// A Markdown table: header cells, then rows of cells that are Markdown
/// already (escape free text with markdown_cell); a newline inside a cell
/// becomes <br>, so a cell can never break its row.
class table {
 public:
  explicit table(std::vector<std::string> header) : header_(std::move(header)) {}
  table& row(std::vector<std::string> cells);
  std::size_t rows() const { return rows_.size(); }
  std::string str() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace md
}  // namespace pv
