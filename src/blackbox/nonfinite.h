// Why an attention() call returned NaN or infinity, read off black-box: a few
// probe calls at the failing call's shape (its n_q, n_k, d, d_v and dtype as
// sent) with scores built through q and k and v = ones, each finite or not.
// Softmax is unchanged by a shift of a row's scores, so a kernel that is
// finite with scores in [0, 8] and not with the same scores shifted by +100
// (exp(100) overflows float32, exp(12) float16) lets exp overflow: it does
// not subtract the row maximum. One that is non-finite only when every score
// of a row ties mishandles ties. law_run::calls_ok attaches the finding to a
// law's non-finite failure (attention.reference, attention.shapes, ...).
#pragma once

#include "blackbox/check_run.h"

#include <cstddef>
#include <string>
#include <vector>

namespace pv::blackbox {

/// The score patterns of the probes, in the order they are sent.
enum class score_probe {
  ties,           ///< q = 0: every score 0
  rising,         ///< distinct scores rising from 0 to 8 along the keys
  rising_shifted, ///< the same scores plus a shift (about 100)
  ties_shifted,   ///< every score equal to the shift
};

/// One probe: its scores as sent (smallest and largest) and what came back.
struct nonfinite_reading {
  score_probe kind = score_probe::ties;
  double lo = 0, hi = 0;  ///< the smallest and largest score of a row, from the values as sent
  double shift = 0;       ///< the shifted probes: the score added to every key
  bool distinct = true;   ///< the rising probes: no two keys' scores equal as sent
  bool finite = true;
  bool nan = false;  ///< a NaN among the non-finite entries (else only infinities)
};

/// The rows of the failing call's output with a NaN or infinity, of n_q.
struct nonfinite_rows {
  std::size_t n_q = 0;
  std::vector<std::size_t> rows;
};

/// What the probes show about the non-finite output, and which rows of the
/// failing call it hit (when not every row). Pure
/// (tests/blackbox/nonfinite_test.cpp).
std::string nonfinite_finding(const std::vector<nonfinite_reading>& rs, const nonfinite_rows& failing);

/// The rows of an attention() call's output (its out bytes in the call's
/// dtype as read back: float32 or float64) with a non-finite entry.
nonfinite_rows nonfinite_rows_of(const call& c, const std::vector<unsigned char>& out);

/// Sends the four probes at the shape of attention() call c (float32 or
/// float64, through cx's wire as the law sent it; fewer query rows, all
/// alike, past 2^27 multiply-adds a call). Empty (and `error` set) when a
/// probe ends otherwise than ok or non-finite.
std::vector<nonfinite_reading> read_nonfinite(const check_run& cx, const call& c, std::string& error);

/// The diagnosis of attention() call c that ended non-finite with output
/// `out`: the probes' finding, or "" when they could not run.
std::string diagnose_nonfinite(const check_run& cx, const call& c, const std::vector<unsigned char>& out);

}  // namespace pv::blackbox
