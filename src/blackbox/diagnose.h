// Black-box diagnosis of a RoPE implementation that disagrees with the
// reference: probe it with unit vectors at single positions and infer what it
// actually does -- which components it pairs, the speed of each pair, the
// direction of rotation, whether each axis's ladder restarts at speed 1, which
// components each position axis drives, and how it treats positions 0, 257
// and 2049 (offsets, bfloat16 or float16 rounding).
#pragma once

#include "blackbox/law_run.h"
#include "blackbox/rope_model.h"

namespace pv::blackbox {

/// A probe call: d rows, row j the unit vector e_j, every row at position pos1.
call rope_probe(const rope_cfg& rc, pv_dtype t, const std::vector<double>& pos1);

/// The d x d matrix returned by a probe call (row j = R e_j), as doubles.
std::vector<std::vector<double>> probe_rows(const result& r, pv_dtype t, std::size_t d);

/// x rounded to `bits` significant bits (8: bfloat16, 11: float16): what a
/// position stored in that format becomes.
double round_to_bits(double x, int bits);

/// " (= position rounded to bfloat16)" or "... float16" when position m (257
/// or 2049) read as m_eff is that rounding, else ""; exact257: 257 read right
/// (it is exact in float16, not in bfloat16).
std::string rounded_position(double m, double m_eff, bool exact257);

/// Returns {config, dtype, findings: [...], pairs, message}; message reads
/// e.g. "you asked for split halves with speeds theta^(-2i/d); it rotates
/// adjacent pairs with speeds theta^(-i/d)".
json diagnose_rope(const check_run& cx, const rope_cfg& rc);

/// The same for a configuration of ABI version 3 (diagnose_scaled.cpp), e.g. "it applies
/// position interpolation with factor 4, not YaRN"; diagnose_rope hands those over.
json diagnose_scaled_rope(const check_run& cx, const rope_cfg& rc);

}  // namespace pv::blackbox
