// rope.rows: every row of a batch is rotated as the reference says, whatever
// the batch size: n = 17 to 4095 rows, off the multiples of 16 and 64, where a
// kernel that works in tiles of rows handles its last, partial tile (a tail
// loop forgotten, a grid of floor(n / tile) blocks). The other RoPE laws send
// at most a few rows (the FLUX grids aside), so a tail that stays unrotated
// passes them.
// Tolerance: the kernel model of blackbox/rope_model.h, as rope.reference's.
// Judge: the black-box check (blackbox/rope_laws.cpp), one case per size, the
// rows cycling through a few distinct (row, position) pairs so that the
// reference is computed once per pair.
#pragma once

#include <cstddef>
#include <string>

namespace pv::laws::rope_rows {

inline constexpr const char* id = "rope.rows";

/// The batch sizes, one case each: past a tile of 16 or 64 by one, short of
/// one by one, and in between.
inline constexpr std::size_t sizes[] = {17, 33, 63, 65, 100, 129, 257, 1025, 4095};
/// The distinct (row, position) pairs a case's rows cycle through.
inline constexpr std::size_t distinct = 5;

inline std::string statement() {
  return "every row of a batch of n rows agrees with the high-precision (MPFR) RoPE of the requested "
         "configuration, for n = 17 to 4095 off the multiples of 16 and 64 (the last, partial tile of a "
         "kernel that works in tiles of rows)";
}

}  // namespace pv::laws::rope_rows
