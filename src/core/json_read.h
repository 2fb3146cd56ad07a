// Reading a report back from its JSON (posverify merge, JUnit): a field that
// must be there, and a text field that may be null or absent.
#pragma once

#include "core/json.h"
#include "core/verdict.h"

#include <charconv>  // from_chars
#include <cstdint>
#include <stdexcept>
#include <string>

namespace pv::json_read {

/// o[key]; throws std::runtime_error "the <what> report has no "key"".
inline const json& need(const json& o, const char* key, const char* what = "") {
  const json* v = o.find(key);
  if (!v) throw std::runtime_error(std::string("the ") + what + (*what ? " " : "") + "report has no \"" + key + "\"");
  return *v;
}

/// The text of o[key] (a string, a number's text, a whole number), "" when
/// absent or null.
inline std::string text(const json& o, const char* key) {
  const json* v = o.find(key);
  return v && !v->is_null() ? number_text(*v) : std::string();
}

/// The seed of a report, o["seed"]: a whole number in [0, 2^64) written as a
/// string (as the reports write it) or as a number; throws
/// std::runtime_error "<where>: seed: ..." naming what is there instead.
inline std::uint64_t seed_of(const json& o, const std::string& where) {
  const json* v = o.find("seed");
  if (!v) throw std::runtime_error(where + ": seed: missing");
  const bool text = v->type() == json::kind::string || v->type() == json::kind::integer ||
                    v->type() == json::kind::number;
  const std::string s = text ? number_text(*v) : std::string();
  std::uint64_t x = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (!text || s.empty() || ec != std::errc() || end != s.data() + s.size()) {
    static const char* kinds[] = {"null", "a boolean", "an integer", "a number", "a string", "an array", "an object"};
    throw std::runtime_error(where + ": seed: expected a whole number in [0, 2^64), got " +
                             (text ? "\"" + s.substr(0, 40) + "\"" : std::string(kinds[int(v->type())])));
  }
  return x;
}

/// The verdict of o["verdict"], read back with parse_verdict; throws
/// std::runtime_error "<where>.verdict: missing" or "<where>.verdict: "X" names
/// no verdict" (where: the file and the entry, as "a.json: laws[3]").
inline verdict verdict_of(const json& o, const std::string& where) {
  const json* v = o.find("verdict");
  if (!v || v->type() != json::kind::string)
    throw std::runtime_error(where + ".verdict: " + (v ? "expected a string" : "missing"));
  const auto r = parse_verdict(v->as_string());
  if (!r) throw std::runtime_error(where + ".verdict: \"" + v->as_string() + "\" names no verdict");
  return *r;
}

}  // namespace pv::json_read
