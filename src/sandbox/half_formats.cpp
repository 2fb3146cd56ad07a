#include "sandbox/half_formats.h"

#include <cstring>

namespace pv::sandbox {

double from_16bit(pv_dtype t, std::uint16_t b) {
  if (t == PV_F16) {
    _Float16 h;
    std::memcpy(&h, &b, 2);
    return double(h);
  }
  const std::uint32_t w = std::uint32_t(b) << 16;  // bfloat16: the high half of a float
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

std::uint16_t to_16bit(pv_dtype t, float x) {
  std::uint16_t b;
  if (t == PV_F16) {
    const _Float16 h = static_cast<_Float16>(x);  // correctly rounded (GCC's __truncsfhf2)
    std::memcpy(&b, &h, 2);
    return b;
  }
  std::uint32_t w;
  std::memcpy(&w, &x, 4);
  if ((w & 0x7F800000u) == 0x7F800000u) return std::uint16_t((w >> 16) | ((w & 0xFFFFu) ? 0x40u : 0u));  // inf, NaN
  w += 0x7FFFu + ((w >> 16) & 1u);  // round to nearest, ties to even
  return std::uint16_t(w >> 16);
}

}  // namespace pv::sandbox
