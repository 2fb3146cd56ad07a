#include "reports/markdown.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace pv {

std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += "<br>";
    else out += c;
  }
  return out;
}

namespace md {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// A decimal number split into sign, significant digits (no leading zeros)
/// and the decimal exponent of the first digit: value = 0.d1d2... * 10^(point).
struct decimal {
  bool negative = false;
  std::string digits;  // empty for zero
  long point = 0;
};

/// Parses -?digits(.digits)?([eE][+-]?digits)? (also "+" and ".5"); false
/// when `t` is anything else.
bool parse(const std::string& t, decimal& d) {
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '-' || t[i] == '+')) d.negative = t[i++] == '-';
  std::string mant;
  long int_digits = 0;
  bool any = false;
  while (i < t.size() && is_digit(t[i])) mant += t[i++], ++int_digits, any = true;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && is_digit(t[i])) mant += t[i++], any = true;
  }
  if (!any) return false;
  long exp = 0;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    bool neg = false;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) neg = t[i++] == '-';
    if (i >= t.size() || !is_digit(t[i])) return false;
    while (i < t.size() && is_digit(t[i])) {
      if (exp < 100000000) exp = exp * 10 + (t[i] - '0');
      ++i;
    }
    if (neg) exp = -exp;
  }
  if (i != t.size()) return false;
  std::size_t lead = 0;
  while (lead < mant.size() && mant[lead] == '0') ++lead;
  std::size_t end = mant.size();
  while (end > lead && mant[end - 1] == '0') --end;
  d.digits = mant.substr(lead, end - lead);
  d.point = int_digits - static_cast<long>(lead) + exp;
  return true;
}

std::string exponent_text(long e) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "e%c%02ld", e < 0 ? '-' : '+', e < 0 ? -e : e);
  return buf;
}

}  // namespace

std::string num(const std::string& text) {
  if (text == "inf" || text == "+inf" || text == "Inf" || text == "infinity") return "inf";
  if (text == "-inf" || text == "-Inf" || text == "-infinity") return "-inf";
  if (text == "nan" || text == "NaN" || text == "-nan" || text == "+nan") return "NaN";
  decimal d;
  if (!parse(text, d)) return text;
  const std::string sign = d.negative ? "-" : "";
  if (d.digits.empty()) return sign + "0";
  // an exact integer of at most 15 digits: every digit, no exponent
  if (d.point >= static_cast<long>(d.digits.size()) && d.point <= 15)
    return sign + d.digits + std::string(static_cast<std::size_t>(d.point) - d.digits.size(), '0');
  // round to `digits` significant digits, half away from zero
  std::string r = d.digits.substr(0, std::min<std::size_t>(d.digits.size(), digits));
  long point = d.point;
  if (d.digits.size() > static_cast<std::size_t>(digits) && d.digits[digits] >= '5') {
    int k = static_cast<int>(r.size()) - 1;
    while (k >= 0 && r[k] == '9') r[k--] = '0';
    if (k >= 0) ++r[k];
    else r.insert(r.begin(), '1'), r.pop_back(), ++point;
  }
  while (r.size() > 1 && r.back() == '0') r.pop_back();
  const long x = point - 1;  // exponent of the first digit
  if (x < -4 || x >= digits) {
    std::string m = r.substr(0, 1);
    if (r.size() > 1) m += "." + r.substr(1);
    return sign + m + exponent_text(x);
  }
  if (x < 0) return sign + "0." + std::string(static_cast<std::size_t>(-x - 1), '0') + r;
  const std::size_t whole = static_cast<std::size_t>(x) + 1;
  if (r.size() <= whole) return sign + r + std::string(whole - r.size(), '0');
  return sign + r.substr(0, whole) + "." + r.substr(whole);
}

std::string num(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.25e", x);  // glibc: the exact binary value's digits
  return num(std::string(buf));
}

std::string num(std::int64_t x) { return std::to_string(x); }

std::string value(const json& v) {
  switch (v.type()) {
    case json::kind::null: return "—";
    case json::kind::boolean: return v.as_bool() ? "yes" : "no";
    case json::kind::integer: return num(v.as_integer());
    case json::kind::number: return num(v.as_string());
    case json::kind::string: {
      const std::string n = num(v.as_string());
      return n != v.as_string() || is_json_number(v.as_string()) ? n : prose(v.as_string());
    }
    case json::kind::array: {
      std::string s = "[";
      for (std::size_t i = 0; i < v.items().size(); ++i) s += (i ? ", " : "") + value(v.items()[i].second);
      return s + "]";
    }
    case json::kind::object: {
      std::string s;
      for (const auto& kv : v.items()) s += (s.empty() ? "" : "; ") + kv.first + " = " + value(kv.second);
      return s;
    }
  }
  return "";
}

std::string prose(const std::string& text) {
  std::string out;
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  bool in_code = false;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '`') {
      in_code = !in_code;
      out += c;
      ++i;
      continue;
    }
    const bool starts = is_digit(c) || ((c == '-' || c == '+') && i + 1 < text.size() && is_digit(text[i + 1]));
    const bool after_word = i > 0 && (word_char(text[i - 1]) || text[i - 1] == '.');
    if (in_code || !starts || after_word) {
      out += c;
      ++i;
      continue;
    }
    // the longest number here: digits, an optional fraction, an optional exponent
    std::size_t j = i + (is_digit(c) ? 0 : 1);
    while (j < text.size() && is_digit(text[j])) ++j;
    bool figure = false;
    if (j + 1 < text.size() && text[j] == '.' && is_digit(text[j + 1])) {
      ++j;
      while (j < text.size() && is_digit(text[j])) ++j;
      figure = true;
    }
    if (j < text.size() && (text[j] == 'e' || text[j] == 'E')) {
      std::size_t k = j + 1;
      if (k < text.size() && (text[k] == '-' || text[k] == '+')) ++k;
      if (k < text.size() && is_digit(text[k])) {
        while (k < text.size() && is_digit(text[k])) ++k;
        j = k;
        figure = true;
      }
    }
    const std::string tok = text.substr(i, j - i);
    // a version (0.1.0), an identifier (2x3b) or a dotted name: not a figure
    const bool glued = j < text.size() && (word_char(text[j]) || (text[j] == '.' && j + 1 < text.size() &&
                                                                     is_digit(text[j + 1])));
    decimal d;
    if (figure && !glued && parse(tok, d) && d.digits.size() > 5) out += num(tok);
    else out += tok;
    i = j;
  }
  return out;
}

std::string untrusted(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  const std::size_t n = text.size();
  auto run_at = [&](std::size_t i) {  // length of the backtick run starting at i
    std::size_t j = i;
    while (j < n && text[j] == '`') ++j;
    return j - i;
  };
  std::size_t i = 0;
  while (i < n) {
    const char c = text[i];
    if (c == '\\' && i + 1 < n && std::ispunct(static_cast<unsigned char>(text[i + 1]))) {
      out.append(text, i, 2);  // an escaped character, '<' and '`' included, is literal
      i += 2;
    } else if (c == '`') {
      const std::size_t len = run_at(i);
      std::size_t j = i + len, close = std::string::npos;
      while (j < n) {  // the next run of exactly `len` backticks closes the span
        if (text[j] != '`') {
          ++j;
          continue;
        }
        const std::size_t r = run_at(j);
        if (r == len) {
          close = j;
          break;
        }
        j += r;
      }
      const std::size_t end = close == std::string::npos ? i + len : close + len;
      out.append(text, i, end - i);
      i = end;
    } else {
      if (c == '<') out += "&lt;";
      else out += c;
      ++i;
    }
  }
  return out;
}

std::string fence(const std::string& content) {
  std::size_t longest = 0, run = 0;
  for (char c : content) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

std::string wrap(const std::string& text, std::size_t width, const std::string& indent) {
  // words, with code spans kept whole
  std::vector<std::string> words;
  std::string w;
  bool code = false;
  for (char c : text) {
    if (c == '`') code = !code;
    if ((c == ' ' || c == '\n') && !code) {
      if (!w.empty()) words.push_back(w);
      w.clear();
    } else {
      w += c;
    }
  }
  if (!w.empty()) words.push_back(w);
  auto starts_block = [](const std::string& x) {
    if (x == "-" || x == "+" || x == "*" || x == ">" || x == "|" || x[0] == '#' || x[0] == '|' || x[0] == '>' ||
        x[0] == '=' || x.rfind("---", 0) == 0 || x.rfind("```", 0) == 0)
      return true;
    std::size_t k = 0;
    while (k < x.size() && is_digit(x[k])) ++k;
    return k > 0 && k + 1 == x.size() && (x[k] == '.' || x[k] == ')');
  };
  std::string out, line;
  for (const auto& word : words) {
    if (!line.empty() && line.size() + 1 + word.size() > width && !starts_block(word)) {
      out += line + "\n";
      line = indent;
    } else if (!line.empty() && line != indent) {
      line += ' ';
    }
    line += word;
  }
  return out + line;
}

std::string heading(int level, const std::string& title) {
  return std::string(static_cast<std::size_t>(level < 1 ? 1 : level > 6 ? 6 : level), '#') + " " + title + "\n\n";
}

table& table::row(std::vector<std::string> cells) {
  rows_.push_back(std::move(cells));
  return *this;
}

std::string table::str() const {
  auto line = [](const std::vector<std::string>& cells, std::size_t n) {
    std::string s = "|";
    for (std::size_t k = 0; k < n; ++k) {
      std::string c = k < cells.size() ? cells[k] : std::string();
      std::string o;
      for (char ch : c) o += ch == '\n' ? std::string("<br>") : std::string(1, ch);
      s += " " + (o.empty() ? std::string() : o) + " |";
    }
    return s + "\n";
  };
  const std::size_t n = header_.size();
  std::string s = line(header_, n) + "|";
  for (std::size_t k = 0; k < n; ++k) s += "---|";
  s += "\n";
  for (const auto& r : rows_) s += line(r, n);
  return s;
}

}  // namespace md
}  // namespace pv
