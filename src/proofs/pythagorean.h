// Exact algebra on instances (issue 4): RoPE, FLUX multi-axis RoPE and the
// sinusoid with rotations whose cosine and sine are rational (Pythagorean
// triples: (3/5, 4/5), (5/13, 12/13), ...). cos/sin of m times a base angle
// come from Chebyshev recurrences, T_{m+1} = 2c T_m - T_{m-1} and
// sin(m w) = s U_{m-1}(c), not from repeated rotation, so composition is a
// real check. Every law must hold with difference exactly 0.
#pragma once

#include "exact.h"
#include "posverify/json.h"

#include <string>
#include <vector>

namespace pv::proofs {

struct exact_law_result {
  std::string name;
  long instances = 0;
  bool exact_zero = true;        ///< every difference exactly 0
  std::string counterexample;    ///< the first non-zero difference
};

/// Shift invariance, composition, norm preservation (1-D RoPE, 4 Pythagorean
/// pairs), the FLUX three-group decomposition (groups [2, 4, 4]) and the
/// sinusoid linear shift map. `flip_sine` plants the fault of
/// pv::fault::rope_sine_sign (x'_1 = x1 c - x0 s) in the RoPE rotation.
std::vector<exact_law_result> pythagorean_laws(bool flip_sine = false);

json to_json(const std::vector<exact_law_result>& rs);

}  // namespace pv::proofs
