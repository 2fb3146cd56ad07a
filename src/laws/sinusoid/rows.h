// sinusoid.rows: every row of a table of n positions has the formula and
// layout of sinusoid.reference, whatever n: 17 to 4095 rows, off the
// multiples of 16 and 64, where a kernel that works in tiles of rows handles
// its last, partial tile. sinusoid.reference sends at most six rows.
// Tolerance: sinusoid.reference's entry tolerance t (reference.h).
// Judge: the black-box check (blackbox/sinusoid_laws.cpp), one case per size,
// the rows cycling through a few distinct positions so that the reference is
// computed once per position.
#pragma once

#include "laws/rope/rows.h"

#include <string>

namespace pv::laws::sinusoid_rows {

inline constexpr const char* id = "sinusoid.rows";

/// The sizes and the distinct positions per case: those of rope.rows.
inline constexpr const auto& sizes = rope_rows::sizes;
inline constexpr std::size_t distinct = rope_rows::distinct;

inline std::string statement() {
  return "every row of a table of n positions agrees with the high-precision (MPFR) sinusoid, for n = 17 to "
         "4095 off the multiples of 16 and 64 (the last, partial tile of a kernel that works in tiles of rows)";
}

}  // namespace pv::laws::sinusoid_rows
