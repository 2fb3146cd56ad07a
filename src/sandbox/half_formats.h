// The element sizes and names of the dtypes of the plugin interface, the ones
// always offered, and the 16-bit
// formats (ABI version 2): IEEE binary16 and bfloat16 (the high half of a
// binary32), as bit patterns.
#pragma once

#include "posverify/impl.h"

#include <cstddef>
#include <cstdint>

namespace pv::sandbox {

/// Bytes of one element of dtype t.
inline std::size_t elem_size(pv_dtype t) { return t == PV_F32 ? 4 : t == PV_F64 ? 8 : 2; }

/// Every dtype of the interface, in the order reports list them.
inline constexpr pv_dtype kDtypes[] = {PV_F32, PV_F64, PV_F16, PV_BF16};

/// The dtypes every library is offered (PV_DTYPE_BIT bits): float32 and
/// float64; the 16-bit ones only when declared (impl.h, version 5); every
/// one to a server (Python or pipe), which declines what it cannot do.
inline constexpr std::uint32_t kAlwaysOffered = PV_DTYPE_BIT(PV_F32) | PV_DTYPE_BIT(PV_F64);
inline constexpr std::uint32_t kSixteenBit = PV_DTYPE_BIT(PV_F16) | PV_DTYPE_BIT(PV_BF16);
inline constexpr std::uint32_t kEveryDtype = kAlwaysOffered | kSixteenBit;

/// The name of dtype t as reports and accuracy classes spell it ("float32",
/// "float64", "float16", "bfloat16"); the one place that spells them.
inline const char* dtype_name(pv_dtype t) {
  switch (t) {
    case PV_F32: return "float32";
    case PV_F64: return "float64";
    case PV_F16: return "float16";
    case PV_BF16: return "bfloat16";
  }
  return "an unknown dtype";
}

/// A 16-bit value of dtype t (PV_F16 or PV_BF16) as a double, and a float
/// rounded to nearest (ties to even) into that format.
/// (binary16 by the F16C instructions where the CPU has them, else by the
/// compiler's _Float16: the same values bit for bit.)
double from_16bit(pv_dtype t, std::uint16_t b);
std::uint16_t to_16bit(pv_dtype t, float x);
/// The same for n values at once, as the bytes a call carries (any
/// alignment): n binary32 values at f32 to n 16-bit values at out, and n
/// 16-bit values at b16 to n binary32 values at out (exact: every 16-bit
/// value is a float); value by value as the two above.
void to_16bit(pv_dtype t, const void* f32, void* out, std::size_t n);
void from_16bit(pv_dtype t, const void* b16, void* out, std::size_t n);
/// The conversions without F16C, whatever the CPU (the portable path, and
/// the test that compares the two).
std::uint16_t to_16bit_without_f16c(pv_dtype t, float x);
double from_16bit_without_f16c(pv_dtype t, std::uint16_t b);

}  // namespace pv::sandbox
