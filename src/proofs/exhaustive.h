// The exhaustive proofs on small domains (issue 4), as JSON records that the
// claims carry and the tests check.
#pragma once

#include "posverify/json.h"
#include "posverify/matrix.h"

#include <string>

namespace pv::proofs {

/// All orders of a token set: hp within the reorder bound, and the correctly
/// rounded reduction in float64 and float32 bit for bit.
json prove_all_orders(const matrix<double>& X, const std::string& input_doc);

/// The proof of perm.six-cells (720 orders of six_cell_input(), plus the
/// problem-5 tokens' 6 orders).
json six_cell_proof();

/// The proof of p5.no-encoding (all 6 orders of a, b, c).
json p5_orders_proof();

/// The 30-degree example: q = k = (1, 0) and a generic rational pair, every
/// m, n, s in [0, 64).
json rope30_box_proof();

/// One speed: p/q in {1/12, 5/12, 3/7, 7/30, 11/64}.
json single_speed_proofs();

}  // namespace pv::proofs
