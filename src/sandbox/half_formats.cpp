#include "sandbox/half_formats.h"

#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define PV_F16C_PATH 1
#endif

namespace pv::sandbox {

// The portable conversions: binary16 by the compiler's _Float16 (GCC's
// __truncsfhf2 and __extendhfdf2 in libgcc, correctly rounded), bfloat16 by
// its bits.
double from_16bit_without_f16c(pv_dtype t, std::uint16_t b) {
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

std::uint16_t to_16bit_without_f16c(pv_dtype t, float x) {
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

namespace {

#ifdef PV_F16C_PATH
// binary16 <-> binary32 by the F16C instructions where the CPU has them: one
// instruction for eight values, against a call into libgcc's soft-float
// routine per value (a tenth of a RoPE check of a float16 kernel). The same
// values bit for bit: both round to nearest, ties to even (the immediate,
// not MXCSR), neither flushes subnormals, both quiet a NaN keeping its
// payload's high bits (tests/sandbox/half_formats_test.cpp compares them on
// every binary16 and on 1M binary32 values around every rounding boundary;
// all 2^32 were compared once by hand). Widening to binary32 is exact, and so
// is binary32 to double.
constexpr int kNearest = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;

// In and out as bytes of any alignment (the unaligned loads and stores may
// alias anything; single values through memcpy).
__attribute__((target("avx,f16c"))) void f16c_narrow(const unsigned char* in, unsigned char* out,
                                                     std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(reinterpret_cast<const float*>(in + 4 * i)), kNearest);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i), h);
  }
  for (; i < n; ++i) {
    float x;
    std::memcpy(&x, in + 4 * i, 4);
    const auto h = static_cast<std::uint16_t>(_cvtss_sh(x, kNearest));
    std::memcpy(out + 2 * i, &h, 2);
  }
}

__attribute__((target("avx,f16c"))) void f16c_widen(const unsigned char* in, unsigned char* out,
                                                    std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(reinterpret_cast<float*>(out + 4 * i),
                     _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * i))));
  for (; i < n; ++i) {
    std::uint16_t h;
    std::memcpy(&h, in + 2 * i, 2);
    const float x = _cvtsh_ss(h);
    std::memcpy(out + 4 * i, &x, 4);
  }
}

bool have_f16c() {
  static const bool yes = [] {
    __builtin_cpu_init();  // in case a static initialiser gets here before libgcc's own
    return __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
  }();
  return yes;
}
#endif

}  // namespace

double from_16bit(pv_dtype t, std::uint16_t b) {
#ifdef PV_F16C_PATH
  if (t == PV_F16 && have_f16c()) {
    unsigned char f[4];
    f16c_widen(reinterpret_cast<const unsigned char*>(&b), f, 1);
    float x;
    std::memcpy(&x, f, 4);
    return x;
  }
#endif
  return from_16bit_without_f16c(t, b);
}

std::uint16_t to_16bit(pv_dtype t, float x) {
#ifdef PV_F16C_PATH
  if (t == PV_F16 && have_f16c()) {
    unsigned char b[2];
    f16c_narrow(reinterpret_cast<const unsigned char*>(&x), b, 1);
    std::uint16_t h;
    std::memcpy(&h, b, 2);
    return h;
  }
#endif
  return to_16bit_without_f16c(t, x);
}

void to_16bit(pv_dtype t, const void* f32, void* out, std::size_t n) {
  const auto* in = static_cast<const unsigned char*>(f32);
  auto* o = static_cast<unsigned char*>(out);
#ifdef PV_F16C_PATH
  if (t == PV_F16 && have_f16c()) return f16c_narrow(in, o, n);
#endif
  for (std::size_t i = 0; i < n; ++i) {
    float x;
    std::memcpy(&x, in + 4 * i, 4);
    const std::uint16_t h = to_16bit_without_f16c(t, x);
    std::memcpy(o + 2 * i, &h, 2);
  }
}

void from_16bit(pv_dtype t, const void* b16, void* out, std::size_t n) {
  const auto* in = static_cast<const unsigned char*>(b16);
  auto* o = static_cast<unsigned char*>(out);
#ifdef PV_F16C_PATH
  if (t == PV_F16 && have_f16c()) return f16c_widen(in, o, n);
#endif
  for (std::size_t i = 0; i < n; ++i) {
    std::uint16_t h;
    std::memcpy(&h, in + 2 * i, 2);
    const float x = static_cast<float>(from_16bit_without_f16c(t, h));
    std::memcpy(o + 4 * i, &x, 4);
  }
}

}  // namespace pv::sandbox
