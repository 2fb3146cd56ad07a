// libFuzzer target: `--rope-config PAIRING:THETA:DIMS[:MODIFIERS]` (src/blackbox/rope_config.cpp).
// Invariants: only std::invalid_argument; an accepted configuration has 1 to 4
// even axes summing to head_dim <= 4096 (to less with partial rotary), a
// finite theta > 1, no blanks, and a reference ladder of finite positive speeds.
#include "blackbox/rope_model.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string spec(reinterpret_cast<const char*>(data), size);
  pv::blackbox::rope_cfg r;
  try {
    r = pv::blackbox::parse_rope_config(spec);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  int sum = 0;
  if (r.c.n_axes < 1 || r.c.n_axes > 4) std::abort();
  for (int a = 0; a < r.c.n_axes; ++a) {
    if (r.c.axes_dim[a] <= 0 || r.c.axes_dim[a] % 2) std::abort();
    sum += r.c.axes_dim[a];
  }
  const bool partial = sum < r.c.head_dim && r.c.n_axes == 1;
  if ((sum != r.c.head_dim && !partial) || r.c.head_dim > 4096) std::abort();
  if (r.c.scaling.kind < PV_SCALE_NONE || r.c.scaling.kind > PV_SCALE_LLAMA3) std::abort();
  if (r.c.scaling.kind != PV_SCALE_NONE && !(r.c.scaling.factor > 1)) std::abort();
  for (const auto& p : pv::rope_scaled_layout<double>(std::size_t(r.c.head_dim), {std::size_t(sum)}, r.c.theta,
                                                      pv::pairing::halves, pv::blackbox::scaling_of(r.c)).pairs)
    if (!std::isfinite(p.speed) || !(p.speed > 0)) std::abort();
  if (!std::isfinite(r.c.theta) || !(r.c.theta > 1)) std::abort();
  if (spec.find_first_of(" \t\n") != std::string::npos) std::abort();  // no blanks slip through
  return 0;
}
