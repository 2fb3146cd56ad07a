// Exhaustive exact proofs for one rotation speed (issue 4):
// - the 30-degree example in Q(sqrt 3): every m, n, s in a box;
// - one speed w = 2 pi p / q: which distances look alike, with angles as
//   exact fractions of a turn.
#pragma once

#include "exact.h"
#include "posverify/json.h"

#include <array>
#include <functional>
#include <string>

namespace pv::proofs {

using vec3 = std::array<qsqrt3, 2>;

/// How a 2-vector is rotated by (c, s) = (cos, sin): the correct rotation
/// (x0 c - x1 s, x0 s + x1 c), or a planted faulty one for the tests.
using rotation_rule = std::function<vec3(const vec3& x, const qsqrt3& c, const qsqrt3& s)>;
vec3 rotate_exact(const vec3& x, const qsqrt3& c, const qsqrt3& s);

struct rope30_proof {
  long box = 0;                 ///< m, n, s range over [0, box)
  long triples = 0;             ///< box^3 triples checked
  bool shift_invariant = true;  ///< dot(m+s, n+s) == dot(m, n) exactly, for all triples
  bool depends_on_diff_mod_12 = true;  ///< dot(m, n) == D[(m - n) mod 12]
  std::string counterexample;   ///< the first failing (m, n, s), exactly
  std::array<qsqrt3, 12> by_difference;  ///< D[k], k = (m - n) mod 12
  qsqrt3 dot_2_5, dot_7_10, dot_3_4;     ///< the chapter's three pairs
};

/// Checks, for q and k given exactly and 30 degrees per position (cos 30 =
/// sqrt3/2, sin 30 = 1/2; R(p) built by exact angle addition from R(1)),
/// every m, n, s in [0, box).
rope30_proof prove_rope30(const vec3& q, const vec3& k, long box,
                          const rotation_rule& rotate = rotate_exact);

json to_json(const rope30_proof& p);

struct single_speed_proof {
  long p = 0, q = 0;       ///< w = 2 pi p / q
  long distances = 0;      ///< distances 0 .. 3q - 1 compared pairwise
  long pairs = 0;
  bool alike_iff_congruent = true;  ///< R(d1 w) == R(d2 w) <=> d1 = d2 mod q
  std::string counterexample;
};

/// With one speed w = 2 pi p/q, the rotation at distance d is a turn by the
/// fraction d p / q; two rotations are equal iff those fractions differ by a
/// whole number. Checks, for all distances d1, d2 in [0, 3q), that they look
/// alike exactly when d1 = d2 (mod q). True iff gcd(p, q) = 1.
single_speed_proof prove_single_speed(long p, long q);

json to_json(const single_speed_proof& p);

}  // namespace pv::proofs
