// The reference precisions a run may ask for (--precision-bits, cli/args.h)
// and a report read back may state (posverify merge). MPFR's cost grows
// faster than linearly with the precision (one property, 200 cases: 0.08 s of
// CPU at 256 bits, 0.13 s at 1024, 0.81 s at 4096), so 4096 keeps a full run
// within tens of minutes; a run at 100000 bits did not finish.
#pragma once

namespace pv::ref {

inline constexpr unsigned min_precision_bits = 64, max_precision_bits = 4096;

}  // namespace pv::ref
