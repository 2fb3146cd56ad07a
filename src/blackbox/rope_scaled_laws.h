// Laws of the RoPE configurations of ABI version 3 (docs/rope-configs.md):
// what holds for partial rotary, YaRN's temperature and dynamic NTK. The
// laws every rotation obeys (shift invariance, composition, ...) run for these
// configurations from rope_laws.cpp as for plain RoPE.
#pragma once

#include "blackbox/law_run.h"

namespace pv::blackbox {

/// Appends the laws that apply to rc (none for a configuration of version 1),
/// in float32 and, unless cx.float_only, float64.
void rope_scaled_laws(const check_run& cx, const rope_cfg& rc, std::vector<law_result>& out);

/// The plain-RoPE laws that do not hold as stated under a temperature a != 1
/// (R(0)x = a x, |R(m)x| = a|x|, R(b)R(a) = a R(a+b)): rope_laws.cpp skips them,
/// rope.yarn.temperature states what holds instead.
inline bool rope_tempered(const rope_cfg& rc) { return rope_temperature<double>(scaling_of(rc.c)) != 1; }

}  // namespace pv::blackbox
