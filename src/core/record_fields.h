// A report record's fields, listed once: each field's JSON name, how it is
// written and how it is read back. One table per record (beside the record:
// blackbox/law_result.h, core/results_fields.h) drives the record's JSON writer, its
// reader (posverify merge, check --baseline), and the keys it knows, so that
// the keys a reader leaves to the record's `extra` are exactly those its
// writer did not write.
//
// Reading checks every field it knows and names the place of a bad one:
// "<where>.<field>: <why>", where is the file and the entry ("a.json:
// laws[3]"), thrown as std::runtime_error (posverify merge exits 2 with it;
// check --baseline turns it into a usage_error).
#pragma once

#include "core/json.h"
#include "core/verdict.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pv::fields {

/// "a string", "a number", ...: the kind of a JSON value, for messages.
inline const char* kind_name(json::kind k) {
  switch (k) {
    case json::kind::null: return "null";
    case json::kind::boolean: return "a boolean";
    case json::kind::integer:
    case json::kind::number: return "a number";
    case json::kind::string: return "a string";
    case json::kind::array: return "an array";
    case json::kind::object: return "an object";
  }
  return "?";
}

/// The place of field `name` inside `where`: "a.json: laws[3]" + "cases" ->
/// "a.json: laws[3].cases"; a `where` that ends in ": " (a file's top level)
/// or is empty takes the name as it is.
inline std::string at(const std::string& where, const std::string& name) {
  if (where.empty() || where.back() == ' ') return where + name;
  return where + "." + name;
}

/// Throws std::runtime_error "<where>.<name>: <why>".
[[noreturn]] inline void bad(const std::string& where, const std::string& name, const std::string& why) {
  throw std::runtime_error(at(where, name) + ": " + why);
}

/// Throws unless v is of kind k ("expected <what>, got <kind of v>").
inline void expect(const json& v, json::kind k, const char* what, const std::string& where, const std::string& name) {
  const bool ok = v.type() == k || (k == json::kind::number && v.type() == json::kind::integer);
  if (!ok) bad(where, name, std::string("expected ") + what + ", got " + kind_name(v.type()));
}

/// One field of record R.
template <class R>
struct field {
  std::string name;
  /// The JSON value of the field; nullopt: the key is not written.
  std::function<std::optional<json>(const R&)> write;
  /// Reads the value (its key present) into the record, checking it; throws
  /// via bad(). Empty: a figure derived from other fields, written only.
  std::function<void(R&, const json&, const std::string& where)> read;
  /// A required key that is absent is "missing"; an optional one is left as
  /// the record's default.
  bool required = true;
};

/// The fields of record R, in the order they are written, and the record's
/// member for the further fields (its `extra`), written after them and read
/// back from every key the table does not name.
template <class R>
class table {
 public:
  explicit table(std::vector<field<R>> fields, json R::*extra = nullptr)
      : fields_(std::move(fields)), extra_(extra) {}

  json write(const R& r) const {
    json o = json::object();
    for (const auto& f : fields_)
      if (auto v = f.write(r)) o.set(f.name, std::move(*v));
    if (extra_)
      for (const auto& kv : (r.*extra_).items()) o.set(kv.first, kv.second);
    return o;
  }

  /// The record read back from its JSON `o`; `where` names the file and the
  /// entry in errors.
  R read(const json& o, const std::string& where) const {
    R r;
    read_into(r, o, where);
    return r;
  }

  void read_into(R& r, const json& o, const std::string& where) const {
    if (o.type() != json::kind::object)
      throw std::runtime_error(where + ": expected an object, got " + kind_name(o.type()));
    for (const auto& f : fields_) {
      const json* v = o.find(f.name);
      if (!v) {
        if (f.required) bad(where, f.name, "missing");
        continue;
      }
      if (f.read) f.read(r, *v, where);
    }
    if (extra_)
      for (const auto& [k, v] : o.items())
        if (!known(k)) (r.*extra_).set(k, v);
  }

  /// Checks field `name` of `o` alone, as read() would, when it is there
  /// (absent: "missing" if `required`); a reader of part of a record (a
  /// baseline) uses it. `name` must be a field of the table.
  void check(const json& o, const std::string& name, const std::string& where, bool required) const {
    for (const auto& f : fields_)
      if (f.name == name) {
        const json* v = o.find(name);
        if (!v && required) bad(where, name, "missing");
        R scratch;
        if (v && f.read) f.read(scratch, *v, where);
        return;
      }
    throw std::logic_error("record_fields: no field \"" + name + "\"");
  }

  /// Whether `key` is a field of the table (not one of the record's extra ones).
  bool known(const std::string& key) const {
    for (const auto& f : fields_)
      if (f.name == key) return true;
    return false;
  }

  const std::vector<field<R>>& fields() const { return fields_; }

 private:
  std::vector<field<R>> fields_;
  json R::*extra_;
};

// ---- the usual kinds of field ----------------------------------------------

/// A string, always written.
template <class R>
field<R> text(const char* name, std::string R::*m) {
  return {name, [m](const R& r) -> std::optional<json> { return json::string(r.*m); },
          [m, name](R& r, const json& v, const std::string& where) {
            expect(v, json::kind::string, "a string", where, name);
            r.*m = v.as_string();
          }};
}

/// A string that is null when empty.
template <class R>
field<R> text_or_null(const char* name, std::string R::*m) {
  return {name, [m](const R& r) -> std::optional<json> { return (r.*m).empty() ? json() : json::string(r.*m); },
          [m, name](R& r, const json& v, const std::string& where) {
            if (v.is_null()) return (r.*m).clear();
            expect(v, json::kind::string, "a string or null", where, name);
            r.*m = v.as_string();
          }};
}

/// An optional string: null when unset, or (`omit_unset`) left out.
template <class R>
field<R> optional_text(const char* name, std::optional<std::string> R::*m, bool omit_unset = false) {
  field<R> f{name,
             [m, omit_unset](const R& r) -> std::optional<json> {
               if (r.*m) return json::string(*(r.*m));
               return omit_unset ? std::nullopt : std::optional<json>(json());
             },
             [m, name](R& r, const json& v, const std::string& where) {
               if (v.is_null()) return (r.*m).reset();
               expect(v, json::kind::string, "a string or null", where, name);
               r.*m = v.as_string();
             }};
  f.required = !omit_unset;
  return f;
}

/// A whole number (int, long, unsigned ...).
template <class R, class I>
field<R> whole(const char* name, I R::*m) {
  return {name, [m](const R& r) -> std::optional<json> { return json::integer(static_cast<std::int64_t>(r.*m)); },
          [m, name](R& r, const json& v, const std::string& where) {
            expect(v, json::kind::integer, "a whole number", where, name);
            r.*m = static_cast<I>(v.as_integer());
          }};
}

/// A verdict, written with to_string and read back with parse_verdict.
template <class R>
field<R> verdict_field(const char* name, verdict R::*m) {
  return {name, [m](const R& r) -> std::optional<json> { return json::string(to_string(r.*m)); },
          [m, name](R& r, const json& v, const std::string& where) {
            expect(v, json::kind::string, "a string", where, name);
            const auto p = parse_verdict(v.as_string());
            if (!p) bad(where, name, "\"" + v.as_string() + "\" names no verdict");
            r.*m = *p;
          }};
}

/// A JSON value kept as it is (of kind k, or any kind when k is null).
template <class R>
field<R> value(const char* name, json R::*m, std::optional<json::kind> k = std::nullopt) {
  return {name, [m](const R& r) -> std::optional<json> { return r.*m; },
          [m, name, k](R& r, const json& v, const std::string& where) {
            if (k) expect(v, *k, *k == json::kind::object ? "an object" : kind_name(*k), where, name);
            r.*m = v;
          }};
}

/// A list of records of table `t` (a function returning it, so that tables
/// may be built in any order).
template <class R, class E>
field<R> records(const char* name, std::vector<E> R::*m, const table<E>& (*t)()) {
  return {name,
          [m, t](const R& r) -> std::optional<json> {
            json a = json::array();
            for (const auto& e : r.*m) a.push(t().write(e));
            return a;
          },
          [m, t, name](R& r, const json& v, const std::string& where) {
            expect(v, json::kind::array, "an array", where, name);
            (r.*m).clear();
            for (std::size_t i = 0; i < v.size(); ++i)
              (r.*m).push_back(t().read(v.items()[i].second, at(where, name) + "[" + std::to_string(i) + "]"));
          }};
}

/// An object of further fields of the same record, null when `present` is
/// false (a law's worst case): written by `sub`, read back by it.
template <class R>
field<R> nested(const char* name, bool R::*present, const table<R>& (*sub)()) {
  return {name,
          [present, sub](const R& r) -> std::optional<json> { return r.*present ? sub().write(r) : json(); },
          [present, sub, name](R& r, const json& v, const std::string& where) {
            r.*present = !v.is_null();
            if (v.is_null()) return;
            expect(v, json::kind::object, "an object or null", where, name);
            sub().read_into(r, v, at(where, name));
          }};
}

/// The records of list `list` of a report read back with table t, each named
/// "<file>: <list>[i]" in errors; an absent list reads as none.
template <class E>
std::vector<E> read_list(const json& report, const char* list, const table<E>& t, const std::string& file) {
  std::vector<E> out;
  const json* items = report.find(list);
  if (!items) return out;
  if (items->type() != json::kind::array)
    throw std::runtime_error(file + ": " + list + ": expected an array, got " + kind_name(items->type()));
  for (std::size_t i = 0; i < items->size(); ++i)
    out.push_back(t.read(items->items()[i].second, file + ": " + list + "[" + std::to_string(i) + "]"));
  return out;
}

}  // namespace pv::fields
