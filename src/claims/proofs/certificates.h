// Certified numbers: each printed figure of the chapter is checked against an
// MPFI enclosure of the exact value it stands for, computed here from the
// formula (independently of posverify's numerics and of the claim's values).
//
// The rule. A printed decimal p with k decimals stands for the rounding
// interval (p - 5·10^-(k+1), p + 5·10^-(k+1)); the end points themselves are
// ties and are treated as not rounding to p (either rounding rule could
// apply). With the enclosure [lo, hi] of the exact value x:
//   proved     lo and hi lie strictly inside the rounding interval;
//   disproved  [lo, hi] and the closed rounding interval are disjoint;
//   undecided  otherwise (the enclosure straddles an end point): say why.
// Every comparison is made on rigorous enclosures of the end points too
// (k·10^-d computed in MPFI), so no decimal-to-binary rounding can sneak in.
// A printed integer that the chapter gets by exact arithmetic is certified by
// equality instead.
//
// The chapter's numbers (CLAIMS.md conventions: attention
// softmax(Q K^T / sqrt d) V, the 2-d sinusoid p(m) = (sin m, cos m), RoPE
// x' = (x0 cos - x1 sin, x0 sin + x1 cos)): the 30-degree and additive dots
// ("Worked example: rotated positions keep only the difference"), the
// sinusoid's wavelengths ("History: from adding to rotating"), the carousel's
// angles (Problem 4), the attention outputs of three tokens (Problem 5) and
// the token counts (Problem 6).
//
// certificates.cpp attaches them to their claims as extra["certificate"]:
// {name -> {enclosure, printed, verdict, ...}}, and two proofs built on them:
// which reading of additive.example reproduces its figures, and that the
// encoding breaks the symmetry of every order in p5.with-encoding.
#pragma once

#include "core/json.h"
#include "core/verdict.h"
#include "reference/mp.h"

#include <array>
#include <string>
#include <vector>

namespace pv::proofs {

// ---- the rule ------------------------------------------------------------------

/// A printed value against its enclosure; its verdict is proved, disproved or
/// undecided (pv::verdict, core/verdict.h).
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

// ---- the chapter's numbers -----------------------------------------------------

/// A vector of MPFI enclosures (a token row, an attention output row).
using ivec = std::vector<interval>;

/// <R(m·30°) q, R(n·30°) k> with q = k = (1, 0) (rope.example-30deg).
interval rope30_dot(long m, long n);

/// Candidate readings of additive.example (q = k = (1, 0), omega = 1 rad):
enum class additive_reading {
  content_plus_position,  ///< (q + p(m)) . (k + p(n)), p(m) = (sin m, cos m)
  content_plus_cos_sin,   ///< the same with the pair order (cos m, sin m)
  position_only,          ///< p(m) . p(n) = cos(m - n)
};
/// The reading's formula in one line, as the report names it.
const char* to_string(additive_reading r);
/// The dot of positions m and n under reading `r`, in MPFI.
interval additive_dot(long m, long n, additive_reading r);

/// Problem 5: a = (1, 0), b = (0, 1), c = (1, 1), Q = K = V = the (encoded)
/// token rows, d = 2. `order` lists the tokens by name ('a', 'b', 'c');
/// encoding: none, exact (sin m, cos m), or the chapter's rounded vectors
/// (0, 1), (0.841, 0.540), (0.909, -0.416) at positions 0, 1, 2.
enum class p5_encoding { none, exact, rounded };
/// softmax(X X^T / sqrt 2) X for the tokens of `order`, one ivec per row.
std::vector<ivec> p5_attention(const std::string& order, p5_encoding enc);

/// Certified symmetry breaking (p5.with-encoding): for every non-identity
/// order of a, b, c with the exact sinusoid added by position, some token's
/// output enclosure is disjoint from its output in the order [a, b, c]. The
/// record lists, per order, whether it is proved broken and the token and
/// component that show it.
json p5_encoding_breaks_every_order();

/// All certificates attached to claim `id` (empty for claims without
/// printed figures).
std::vector<certificate> chapter_certificates(const std::string& claim_id);

/// The ids of the claims that carry printed figures.
std::vector<std::string> certified_claim_ids();

}  // namespace pv::proofs
