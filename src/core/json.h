// A minimal ordered JSON value: keys keep insertion order, so the same
// report gives the same bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pv {

class json {
 public:
  enum class kind { null, boolean, integer, number, string, array, object };

  json() = default;  // null
  static json null() { return json(); }
  static json boolean(bool b) { json j; j.k_ = kind::boolean; j.b_ = b; return j; }
  static json integer(std::int64_t v) { json j; j.k_ = kind::integer; j.i_ = v; return j; }
  /// A JSON number written verbatim. JSON has no infinities or NaN: text that
  /// is not a JSON number ("inf", "nan", "1e") is kept as a string instead, so
  /// that dump() always writes valid JSON and the value stays visible.
  static json number(std::string text);
  static json string(std::string s) { json j; j.k_ = kind::string; j.s_ = std::move(s); return j; }
  static json array() { json j; j.k_ = kind::array; return j; }
  static json object() { json j; j.k_ = kind::object; return j; }
  /// An object of (key, value) pairs in that order; the keys must be distinct
  /// (the caller's promise: no check, so that building is linear).
  static json object_of(std::vector<std::pair<std::string, json>> items);

  kind type() const { return k_; }
  bool is_null() const { return k_ == kind::null; }
  bool as_bool() const { return b_; }
  std::int64_t as_integer() const { return i_; }
  const std::string& as_string() const { return s_; }  ///< string or number text

  /// Arrays.
  json& push(json v) { items_.emplace_back(std::string(), std::move(v)); return *this; }
  /// Objects: sets or replaces key.
  json& set(const std::string& key, json v);
  const json* find(const std::string& key) const;
  const std::vector<std::pair<std::string, json>>& items() const { return items_; }
  std::size_t size() const { return items_.size(); }

  /// Serialises with two-space indentation; arrays of scalars stay on one line.
  std::string dump() const;

  /// Parses JSON text (RFC 8259, nesting at most max_depth deep); throws
  /// std::runtime_error naming the problem and the offset on error.
  static json parse(const std::string& text);
  static constexpr int max_depth = 256;

 private:
  void dump_to(std::string& out, int indent) const;
  kind k_ = kind::null;
  bool b_ = false;
  std::int64_t i_ = 0;
  std::string s_;
  std::vector<std::pair<std::string, json>> items_;
};

std::string json_escape(const std::string& s);

/// The text of a number (whole numbers are parsed as integers), or of a string.
std::string number_text(const json& j);

/// Whether `text` is a number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(const std::string& text);

}  // namespace pv
