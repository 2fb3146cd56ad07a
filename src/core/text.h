// Text that comes from outside (a plugin's name, its stderr, a path the user
// typed) made safe for where it goes: valid UTF-8 for JSON, one visible line
// for the terminal and for Markdown, single quotes for a printed shell
// command. Header-only: the JSON writer (json.cpp) and the check runner
// (src/blackbox/) both use it.
#pragma once

#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>

namespace pv::text {

/// Length of the valid UTF-8 sequence starting at s[i], or 0 when the bytes
/// there are not one (stray continuation byte, overlong form, surrogate,
/// code point above U+10FFFF, truncated sequence).
inline std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t len;
  unsigned lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) len = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;       // overlong
    else if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;       // overlong
    else if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < len; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return len;
}

/// s with every byte that is not part of valid UTF-8 replaced by U+FFFD.
inline std::string valid_utf8(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence(s, i);
    if (n == 0) {
      o += "\xEF\xBF\xBD";
      ++i;
    } else {
      o.append(s.substr(i, n));
      i += n;
    }
  }
  return o;
}

/// One line of valid UTF-8 a terminal shows as written: control characters
/// (C0, DEL, ESC, the C1 controls U+0080..U+009F) become visible escapes
/// (\n, \t, \r, \xNN, \u{NN}), invalid UTF-8 bytes become \xNN.
inline std::string visible(std::string_view s) {
  static const char* hex = "0123456789abcdef";
  std::string o;
  o.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const std::size_t n = utf8_sequence(s, i);
    if (n == 1 && c >= 0x20 && c != 0x7F) {
      o += static_cast<char>(c);
    } else if (n == 1) {
      if (c == '\n') o += "\\n";
      else if (c == '\t') o += "\\t";
      else if (c == '\r') o += "\\r";
      else o += {'\\', 'x', hex[c >> 4], hex[c & 15]};
    } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
      const unsigned char d = static_cast<unsigned char>(s[i + 1]);
      o += {'\\', 'u', '{', hex[d >> 4], hex[d & 15], '}'};
    } else if (n == 0) {
      o += {'\\', 'x', hex[c >> 4], hex[c & 15]};
      i += 1;
      continue;
    } else {
      o.append(s.substr(i, n));
    }
    i += n;
  }
  return o;
}

/// Inline Markdown: visible(s) with the characters that start Markdown
/// syntax (emphasis, links, HTML, headings, table cells, code) escaped.
inline std::string markdown_inline(std::string_view s) {
  std::string o;
  for (char c : visible(s)) {
    if (std::string_view("\\`*_[]<>#|!").find(c) != std::string_view::npos) o += '\\';
    o += c;
  }
  return o;
}

/// A Markdown code span of visible(s) (a table cell may hold it: '|' is
/// escaped, the only escape GitHub honours inside a span).
inline std::string markdown_code(std::string_view s) {
  std::string v = visible(s), o;
  for (char c : v) {
    if (c == '|') o += '\\';
    o += c;
  }
  if (o.find('`') == std::string::npos) return "`" + o + "`";
  return "`` " + o + " ``";
}

/// s as one shell word: unchanged when it holds only characters no shell
/// treats specially, else in single quotes.
inline std::string shell_quote(std::string_view s) {
  bool plain = !s.empty();
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) ||
          std::string_view("/._-+=:,@%^").find(c) != std::string_view::npos))
      plain = false;
  if (plain) return std::string(s);
  std::string o = "'";
  for (char c : s) {
    if (c == '\'') o += "'\\''";
    else o += c;
  }
  return o + "'";
}

}  // namespace pv::text
