// The one verdict type of posverify: claims, properties, black-box check laws,
// certificates and proofs all judge with it, and the reports print it with
// to_string (the strings the reports always had). A verdict is computed, never
// typed in. Its qualification (the condition under which a claim holds, why it
// cannot be checked) travels beside it where the judge states one
// (claim_result::qualification).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace pv {

enum class verdict {
  // a claim of CLAIMS.md
  holds,
  holds_qualified,
  fails,
  not_checkable,
  // a law judged on cases (a property, a black-box check law)
  passed,
  failed,
  insufficient,    ///< check: too few cases evaluated (the library declined the rest)
  unsupported,     ///< check: the library declined every case
  gave_up,         ///< property: RapidCheck discarded too many cases
  error,           ///< property: RapidCheck reported an error
  not_reproduced,  ///< property: the replayed case passes
  not_run,         ///< check: not selected (--law), or not run yet
  // a certificate (a printed value against an enclosure)
  proved,
  disproved,
  undecided,
};

/// A check law's verdict that fails the run (exit 1, a JUnit failure, FAIL in
/// the listing): failed, or insufficient (too few cases evaluated).
constexpr bool fails_the_run(verdict v) { return v == verdict::failed || v == verdict::insufficient; }

/// The printed name: "holds", "holds-qualified", "gave-up", "not-run", ...
const char* to_string(verdict v);

/// The verdict printed as `s` (as read back from a report); nullopt when `s`
/// names none.
std::optional<verdict> parse_verdict(std::string_view s);

/// A verdict with how it was reached, as the proofs print it:
/// "proved (exhaustive, exact)"; just to_string(v) when `how` is empty.
std::string qualified(verdict v, std::string_view how);

/// The verdict a printed proof verdict begins with: proved for "proved
/// (algebraic)" (the word before the first space); nullopt when none.
std::optional<verdict> leading_verdict(std::string_view s);

/// Prints to_string(v) (test messages).
std::ostream& operator<<(std::ostream& os, verdict v);

}  // namespace pv
