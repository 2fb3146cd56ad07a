#include "core/json.h"
#include "core/text.h"

#include <charconv>  // std::from_chars
#include <cstdio>
#include <stdexcept>
#include <unordered_map>

namespace pv {

json& json::set(const std::string& key, json v) {
  for (auto& kv : items_)
    if (kv.first == key) { kv.second = std::move(v); return *this; }
  items_.emplace_back(key, std::move(v));
  return *this;
}

json json::object_of(std::vector<std::pair<std::string, json>> items) {
  json j = object();
  j.items_ = std::move(items);
  return j;
}

const json* json::find(const std::string& key) const {
  for (auto& kv : items_)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

std::string json_escape(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : text::valid_utf8(s)) {  // JSON text is UTF-8: no invalid bytes
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

namespace {
bool is_scalar(const json& j) {
  return j.type() != json::kind::array && j.type() != json::kind::object;
}
bool flat_array(const json& j) {
  if (j.type() != json::kind::array) return false;
  for (auto& kv : j.items())
    if (!is_scalar(kv.second) && !flat_array(kv.second)) return false;
  return true;
}
}  // namespace

void json::dump_to(std::string& out, int indent) const {
  const std::string pad(indent * 2, ' '), pad_in((indent + 1) * 2, ' ');
  switch (k_) {
    case kind::null: out += "null"; break;
    case kind::boolean: out += b_ ? "true" : "false"; break;
    case kind::integer: out += std::to_string(i_); break;
    case kind::number: out += s_; break;
    case kind::string: out += json_escape(s_); break;
    case kind::array:
      if (items_.empty()) { out += "[]"; break; }
      if (flat_array(*this)) {
        out += "[";
        for (std::size_t i = 0; i < items_.size(); ++i) {
          if (i) out += ", ";
          items_[i].second.dump_to(out, indent);
        }
        out += "]";
        break;
      }
      out += "[\n";
      for (std::size_t i = 0; i < items_.size(); ++i) {
        out += pad_in;
        items_[i].second.dump_to(out, indent + 1);
        out += i + 1 < items_.size() ? ",\n" : "\n";
      }
      out += pad + "]";
      break;
    case kind::object:
      if (items_.empty()) { out += "{}"; break; }
      out += "{\n";
      for (std::size_t i = 0; i < items_.size(); ++i) {
        out += pad_in + json_escape(items_[i].first) + ": ";
        items_[i].second.dump_to(out, indent + 1);
        out += i + 1 < items_.size() ? ",\n" : "\n";
      }
      out += pad + "}";
      break;
  }
}

std::string json::dump() const {
  std::string out;
  dump_to(out, 0);
  return out + "\n";
}

namespace {
bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Length of the JSON number at t[p...] (0 if none), by the grammar of
/// is_json_number; `integral` says whether it has neither fraction nor exponent.
std::size_t number_length(const std::string& t, std::size_t p, bool& integral) {
  const std::size_t s = p;
  integral = true;
  if (p < t.size() && t[p] == '-') ++p;
  if (p >= t.size() || !is_digit(t[p])) return 0;
  if (t[p] == '0') ++p;
  else while (p < t.size() && is_digit(t[p])) ++p;
  if (p < t.size() && t[p] == '.') {
    integral = false;
    if (++p >= t.size() || !is_digit(t[p])) return 0;
    while (p < t.size() && is_digit(t[p])) ++p;
  }
  if (p < t.size() && (t[p] == 'e' || t[p] == 'E')) {
    integral = false;
    if (++p < t.size() && (t[p] == '+' || t[p] == '-')) ++p;
    if (p >= t.size() || !is_digit(t[p])) return 0;
    while (p < t.size() && is_digit(t[p])) ++p;
  }
  return p - s;
}

int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& s, unsigned v) {
  if (v < 0x80) {
    s += static_cast<char>(v);
  } else if (v < 0x800) {
    s += static_cast<char>(0xC0 | (v >> 6));
    s += static_cast<char>(0x80 | (v & 0x3F));
  } else if (v < 0x10000) {
    s += static_cast<char>(0xE0 | (v >> 12));
    s += static_cast<char>(0x80 | ((v >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (v & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (v >> 18));
    s += static_cast<char>(0x80 | ((v >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((v >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (v & 0x3F));
  }
}

// Recursive descent; `depth` bounds the recursion
// (a file of 100,000 '[' must be an error, not a stack overflow).
struct parser {
  const std::string& t;
  std::size_t p = 0;
  [[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(p));
  }
  void ws() {
    while (p < t.size() && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r')) ++p;
  }
  bool eat(char c) { ws(); if (p < t.size() && t[p] == c) { ++p; return true; } return false; }
  unsigned hex4() {
    if (p + 4 > t.size()) fail("truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      int h = hex_value(t[p + i]);
      if (h < 0) fail("bad \\u escape (expected 4 hex digits)");
      v = v * 16 + static_cast<unsigned>(h);
    }
    p += 4;
    return v;
  }
  std::string str() {
    if (!eat('"')) fail("expected string");
    std::string s;
    while (p < t.size() && t[p] != '"') {
      const unsigned char c = static_cast<unsigned char>(t[p]);
      if (c < 0x20) fail("control character in string");
      if (c >= 0x80) {  // JSON text is UTF-8 (RFC 8259, 8.1): a whole valid sequence, or an error
        const std::size_t n = text::utf8_sequence(t, p);
        if (n == 0) fail("invalid UTF-8 byte " + std::to_string(c) + " in string");
        s.append(t, p, n);
        p += n;
        continue;
      }
      if (c != '\\') { s += t[p++]; continue; }
      if (++p >= t.size()) fail("unterminated string");
      const char e = t[p++];
      switch (e) {
        case '"': s += '"'; break;
        case '\\': s += '\\'; break;
        case '/': s += '/'; break;
        case 'n': s += '\n'; break;
        case 't': s += '\t'; break;
        case 'r': s += '\r'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'u': {
          unsigned v = hex4();
          if (v >= 0xDC00 && v <= 0xDFFF) fail("lone low surrogate in \\u escape");
          if (v >= 0xD800 && v <= 0xDBFF) {  // a surrogate pair: \uD8xx\uDCxx
            if (t.compare(p, 2, "\\u") != 0) fail("lone high surrogate in \\u escape");
            p += 2;
            unsigned lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) fail("bad surrogate pair in \\u escape");
            v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
          }
          append_utf8(s, v);
          break;
        }
        default: --p; fail(std::string("bad escape '\\") + e + "'");
      }
    }
    if (p >= t.size()) fail("unterminated string");
    ++p;
    return s;
  }
  json value(int depth) {
    ws();
    if (p >= t.size()) fail("unexpected end");
    const char c = t[p];
    if (c == '{' || c == '[') {
      if (depth >= json::max_depth)
        fail("nesting deeper than " + std::to_string(json::max_depth) + " levels");
      ++p;
      if (c == '{') {
        // The keys in the order they first appear, a repeated key's last
        // value in the place of its first (as set() does), found through a
        // hash index: linear in the keys, not quadratic (set() scans them).
        std::vector<std::pair<std::string, json>> items;
        std::unordered_map<std::string, std::size_t> index;
        if (eat('}')) return json::object();
        do {
          ws();
          std::string k = str();
          if (!eat(':')) fail("expected ':'");
          json v = value(depth + 1);
          const auto [it, fresh] = index.try_emplace(k, items.size());
          if (fresh) items.emplace_back(std::move(k), std::move(v));
          else items[it->second].second = std::move(v);
        } while (eat(','));
        if (!eat('}')) fail("expected ',' or '}'");
        return json::object_of(std::move(items));
      }
      json a = json::array();
      if (eat(']')) return a;
      do { a.push(value(depth + 1)); } while (eat(','));
      if (!eat(']')) fail("expected ',' or ']'");
      return a;
    }
    if (c == '"') return json::string(str());
    if (t.compare(p, 4, "true") == 0) { p += 4; return json::boolean(true); }
    if (t.compare(p, 5, "false") == 0) { p += 5; return json::boolean(false); }
    if (t.compare(p, 4, "null") == 0) { p += 4; return json(); }
    bool integral = false;
    const std::size_t n = number_length(t, p, integral);
    if (n == 0) {
      if (c == '-' || is_digit(c)) fail("malformed number");
      fail(c >= 0x20 && c < 0x7f ? std::string("unexpected character '") + c + "'"
                                  : "unexpected byte " + std::to_string(static_cast<unsigned char>(c)));
    }
    std::string num = t.substr(p, n);
    p += n;
    if (integral) {  // whole numbers that fit stay integers; larger ones keep their text
      std::int64_t v = 0;
      auto [end, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
      if (ec == std::errc() && end == num.data() + num.size()) return json::integer(v);
    }
    return json::number(num);
  }
};
}  // namespace

std::string number_text(const json& j) {
  return j.type() == json::kind::integer ? std::to_string(j.as_integer()) : j.as_string();
}

bool is_json_number(const std::string& text) {
  bool integral = false;
  return !text.empty() && number_length(text, 0, integral) == text.size();
}

json json::number(std::string text) {
  json j;
  j.k_ = is_json_number(text) ? kind::number : kind::string;
  j.s_ = std::move(text);
  return j;
}

json json::parse(const std::string& text) {
  parser ps{text};
  json v = ps.value(0);
  ps.ws();
  if (ps.p != text.size()) ps.fail("trailing characters");
  return v;
}

}  // namespace pv
