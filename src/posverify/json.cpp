#include "json.h"
#include "text.h"

#include <cctype>
#include <cstdio>
#include <stdexcept>

namespace pv {

json& json::set(const std::string& key, json v) {
  for (auto& kv : items_)
    if (kv.first == key) { kv.second = std::move(v); return *this; }
  items_.emplace_back(key, std::move(v));
  return *this;
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
struct parser {
  const std::string& t;
  std::size_t p = 0;
  [[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(p));
  }
  void ws() { while (p < t.size() && std::isspace(static_cast<unsigned char>(t[p]))) ++p; }
  bool eat(char c) { ws(); if (p < t.size() && t[p] == c) { ++p; return true; } return false; }
  std::string str() {
    if (!eat('"')) fail("expected string");
    std::string s;
    while (p < t.size() && t[p] != '"') {
      if (t[p] == '\\') {
        if (++p >= t.size()) fail("bad escape");
        char e = t[p++];
        switch (e) {
          case 'n': s += '\n'; break;
          case 't': s += '\t'; break;
          case 'r': s += '\r'; break;
          case 'b': s += '\b'; break;
          case 'f': s += '\f'; break;
          case 'u': {
            if (p + 4 > t.size()) fail("bad \\u escape");
            unsigned v = std::stoul(t.substr(p, 4), nullptr, 16);
            p += 4;
            if (v < 0x80) s += static_cast<char>(v);
            else if (v < 0x800) { s += static_cast<char>(0xC0 | (v >> 6)); s += static_cast<char>(0x80 | (v & 0x3F)); }
            else { s += static_cast<char>(0xE0 | (v >> 12)); s += static_cast<char>(0x80 | ((v >> 6) & 0x3F)); s += static_cast<char>(0x80 | (v & 0x3F)); }
            break;
          }
          default: s += e;
        }
      } else {
        s += t[p++];
      }
    }
    if (p >= t.size()) fail("unterminated string");
    ++p;
    return s;
  }
  json value() {
    ws();
    if (p >= t.size()) fail("unexpected end");
    char c = t[p];
    if (c == '{') {
      ++p;
      json o = json::object();
      if (eat('}')) return o;
      do {
        ws();
        std::string k = str();
        if (!eat(':')) fail("expected ':'");
        o.set(k, value());
      } while (eat(','));
      if (!eat('}')) fail("expected '}'");
      return o;
    }
    if (c == '[') {
      ++p;
      json a = json::array();
      if (eat(']')) return a;
      do { a.push(value()); } while (eat(','));
      if (!eat(']')) fail("expected ']'");
      return a;
    }
    if (c == '"') return json::string(str());
    if (t.compare(p, 4, "true") == 0) { p += 4; return json::boolean(true); }
    if (t.compare(p, 5, "false") == 0) { p += 5; return json::boolean(false); }
    if (t.compare(p, 4, "null") == 0) { p += 4; return json(); }
    std::size_t start = p;
    if (t[p] == '-') ++p;
    bool integral = true;
    while (p < t.size() && (std::isdigit(static_cast<unsigned char>(t[p])) || t[p] == '.' ||
                            t[p] == 'e' || t[p] == 'E' || t[p] == '+' || t[p] == '-')) {
      if (!std::isdigit(static_cast<unsigned char>(t[p]))) integral = false;
      ++p;
    }
    if (p == start) fail(std::string("unexpected character '") + c + "'");
    std::string num = t.substr(start, p - start);
    if (integral && num.size() < 19) return json::integer(std::stoll(num));
    return json::number(num);
  }
};
}  // namespace

json json::parse(const std::string& text) {
  parser ps{text};
  json v = ps.value();
  ps.ws();
  if (ps.p != text.size()) ps.fail("trailing characters");
  return v;
}

}  // namespace pv
