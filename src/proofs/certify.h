// Certified numbers (issue 4): a printed figure of the chapter is checked
// against an MPFI enclosure of the exact value it stands for.
//
// A printed decimal p with k decimals stands for the rounding interval
// (p - 5·10^-(k+1), p + 5·10^-(k+1)); the end points themselves are ties and
// are treated as not rounding to p (either rounding rule could apply). With
// the enclosure [lo, hi] of the exact value x:
//   proved     lo and hi lie strictly inside the rounding interval;
//   disproved  [lo, hi] and the closed rounding interval are disjoint;
//   undecided  otherwise (the enclosure straddles an end point): say why.
// Every comparison is made on rigorous enclosures of the end points too
// (k·10^-d computed in MPFI), so no decimal-to-binary rounding can sneak in.
#pragma once

#include "posverify/json.h"
#include "posverify/verdict.h"
#include "reference/mp.h"

#include <string>
#include <vector>

namespace pv::proofs {

/// A printed value against its enclosure; its verdict is proved, disproved or
/// undecided (pv::verdict, posverify/verdict.h).
struct certificate {
  std::string name;      ///< the chapter's value name (CLAIMS.md)
  std::string formula;   ///< what was enclosed, in one line
  interval enclosure;    ///< MPFI enclosure of the exact value
  std::string printed;   ///< the chapter's figure, e.g. "-0.040"
  std::string rule;      ///< "rounds to printed at k decimals" or "equals printed exactly"
  pv::verdict verdict = pv::verdict::undecided;
  std::string why;       ///< for undecided (and as a note otherwise)
  std::string exact;     ///< the exact value where it is known in closed form
  /// The verdict the claim's own computation leads us to expect; a different
  /// verdict makes the claim fail (claims/registry.cpp, proof_failures).
  pv::verdict expected = pv::verdict::proved;
  std::string expected_why;  ///< why a verdict other than proved is expected
  /// Another reading of the chapter's formula, tried on purpose to show that
  /// it does not give the printed figure (claims.md says "ruled out").
  bool rejected_reading = false;
  /// What the certificate checks: the chapter's figure against an exact value
  /// computed in MPFI, independently of posverify's numerics (never the code).
  std::string checks = "the printed figure against an MPFI enclosure of the exact value; "
                       "posverify's numerics are not inspected";
};

/// The point interval [x, x] for an exact integer.
interval exact(long x);

/// pi as an MPFI enclosure (mpfi_const_pi).
interval interval_pi();

/// Decides whether every number in `x` rounds to `printed` ("0.866",
/// "-0.040", "130") at the printed number of decimals. Throws
/// std::invalid_argument for a printed string that is not a plain decimal.
certificate certify_rounding(std::string name, std::string formula, const interval& x,
                             const std::string& printed);

/// Decides whether the exact value enclosed by `x` equals the integer
/// `printed`: proved when x is the point [printed, printed], disproved when
/// printed lies outside x, undecided otherwise.
certificate certify_exact(std::string name, std::string formula, const interval& x, long printed);

/// The end points of `x` as decimal strings: lo rounded down, hi rounded up
/// (so the printed interval still encloses the value), `digits` significant.
std::string lower_decimal(const interval& x, int digits = 40);
std::string upper_decimal(const interval& x, int digits = 40);

/// {"enclosure": [lo, hi], "printed", "rule", "verdict", "expected", "checks",
/// "formula", "why"?, "expected_why"?, "rejected_reading"? (true when set)}.
json to_json(const certificate& c);

/// {name -> to_json(c)} for a list of certificates.
json to_json(const std::vector<certificate>& cs);

}  // namespace pv::proofs
