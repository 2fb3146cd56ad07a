#include "sandbox/length_model.h"

#include "sandbox/half_formats.h"
#include "sandbox/operations.h"

#include <algorithm>

namespace pv::sandbox {

bool length_from_positions(const impl_info& lib, const pv_rope_config& c) {
  return (lib.rope_caps & PV_ROPE_LENGTH_FROM_POSITIONS) && c.scaling.kind == PV_SCALE_DYNAMIC_NTK;
}

double sequence_length(const pv_rope_config& c) {
  const double L = c.scaling.length, L0 = c.scaling.original_length;
  return L > L0 ? L : std::max(1.0, L0 - 1);
}

bool anchored(const impl_info& lib, const call& c) {
  // the declaration first: most libraries make none, and every call of a batch asks
  return c.kind == op::rope && (lib.rope_caps & PV_ROPE_LENGTH_FROM_POSITIONS) &&
         length_from_positions(lib, rope_config_of(c));
}

call with_anchor(const call& c) {
  const pv_rope_config cfg = rope_config_of(c);
  call a = c;
  const std::size_t axes = std::size_t(std::clamp(cfg.n_axes, 1, 4));
  auto& pos = a.in.at(1);
  const double last = sequence_length(cfg) - 1;
  for (std::size_t k = 0; k < axes; ++k) {
    const auto* p = reinterpret_cast<const unsigned char*>(&last);
    pos.insert(pos.end(), p, p + sizeof last);
  }
  auto& x = a.in.at(2);
  x.resize(x.size() + std::size_t(std::max(0, cfg.head_dim)) * elem_size(c.t), 0);
  a.scalars.at(0).i += 1;
  return a;
}

void drop_anchor(const call& c, result& r) {
  if (r.out.size() > c.out_bytes()) r.out.resize(c.out_bytes());
}

}  // namespace pv::sandbox
