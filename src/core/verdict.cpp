// The verdict type's spellings (verdict.h): printed with to_string, read back
// with parse_verdict.
#include "core/verdict.h"

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace pv {

const char* to_string(verdict v) {
  switch (v) {
    case verdict::holds: return "holds";
    case verdict::holds_qualified: return "holds-qualified";
    case verdict::fails: return "fails";
    case verdict::not_checkable: return "not-checkable";
    case verdict::passed: return "passed";
    case verdict::failed: return "failed";
    case verdict::insufficient: return "insufficient";
    case verdict::unsupported: return "unsupported";
    case verdict::gave_up: return "gave-up";
    case verdict::error: return "error";
    case verdict::not_reproduced: return "not-reproduced";
    case verdict::not_run: return "not-run";
    case verdict::proved: return "proved";
    case verdict::disproved: return "disproved";
    case verdict::undecided: return "undecided";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& os, verdict v) { return os << to_string(v); }

std::optional<verdict> parse_verdict(std::string_view s) {
  for (int i = 0; i <= int(verdict::undecided); ++i)
    if (s == to_string(verdict(i))) return verdict(i);
  return std::nullopt;
}

std::string qualified(verdict v, std::string_view how) {
  std::string s = to_string(v);
  if (!how.empty()) s += " (" + std::string(how) + ")";
  return s;
}

std::optional<verdict> leading_verdict(std::string_view s) { return parse_verdict(s.substr(0, s.find(' '))); }

}  // namespace pv
