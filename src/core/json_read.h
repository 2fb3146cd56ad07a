// Reading a report back from its JSON (posverify merge, JUnit): a field that
// must be there, and a text field that may be null or absent.
#pragma once

#include "core/json.h"
#include "core/verdict.h"

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
