// The chapter's printed figures as MPFI enclosures of the formulas they stand
// for (CLAIMS.md conventions: attention softmax(Q K^T / sqrt d) V, the 2-d
// sinusoid p(m) = (sin m, cos m), RoPE x' = (x0 cos - x1 sin, x0 sin + x1 cos)).
#pragma once

#include "certify.h"

#include <array>
#include <string>
#include <vector>

namespace pv::proofs {

using ivec = std::vector<interval>;

/// <R(m·30°) q, R(n·30°) k> with q = k = (1, 0) (rope.example-30deg).
interval rope30_dot(long m, long n);

/// Candidate readings of additive.example (q = k = (1, 0), omega = 1 rad):
enum class additive_reading {
  content_plus_position,  ///< (q + p(m)) . (k + p(n)), p(m) = (sin m, cos m)
  content_plus_cos_sin,   ///< the same with the pair order (cos m, sin m)
  position_only,          ///< p(m) . p(n) = cos(m - n)
};
const char* to_string(additive_reading r);
interval additive_dot(long m, long n, additive_reading r);

/// Problem 5: a = (1, 0), b = (0, 1), c = (1, 1), Q = K = V = the (encoded)
/// token rows, d = 2. `order` lists the tokens by name ('a', 'b', 'c');
/// encoding: none, exact (sin m, cos m), or the chapter's rounded vectors
/// (0, 1), (0.841, 0.540), (0.909, -0.416) at positions 0, 1, 2.
enum class p5_encoding { none, exact, rounded };
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
