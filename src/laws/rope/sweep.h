// rope.sweep: not a law with a verdict but the black-box check's measurement
// of a kernel's error at positions 2^j and 2^j + 1 (j = 0..20), one row
// repeated at every position, against the reference and its tolerance.
// Its id seeds the sweep's generator. Judge: blackbox/rope_sweep.cpp.
#pragma once

namespace pv::laws::rope_sweep {

inline constexpr const char* id = "rope.sweep";

}  // namespace pv::laws::rope_sweep
