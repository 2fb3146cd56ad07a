// The 16-bit formats (sandbox/half_formats.h): binary16 by the F16C
// instructions where the CPU has them gives the values of the portable
// conversion (the compiler's _Float16, libgcc's soft-float) bit for bit, one
// value at a time and many at once; bfloat16 rounds to nearest, ties to even.
#include "sandbox/half_formats.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace sandbox_half_formats_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv::sandbox;

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, 8);
  return b;
}
float from_bits(std::uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

// Every binary16 value (zeros, subnormals, infinities, NaNs with every
// payload) widens to the same double either way, and many at once to the
// same floats.
TEST(HalfFormats, EveryBinary16WidensAsThePortableConversion) {
  std::vector<std::uint16_t> all(65536);
  for (std::uint32_t b = 0; b < 65536; ++b) all[b] = std::uint16_t(b);
  std::vector<float> many(all.size());
  from_16bit(PV_F16, all.data(), many.data(), all.size());
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const double want = from_16bit_without_f16c(PV_F16, std::uint16_t(b));
    ASSERT_EQ(bits(from_16bit(PV_F16, std::uint16_t(b))), bits(want)) << std::hex << b;
    ASSERT_EQ(bits(double(many[b])), bits(want)) << std::hex << b;
  }
}

// binary32 values at and around every rounding boundary of binary16 (the
// 13 dropped bits of a normal result: below, at and above the tie, and the
// wider boundaries of subnormal results), for every sign, exponent and the
// top mantissa bits: rounded alike one at a time and many at once. (All
// 2^32 binary32 values were compared once by hand, with no difference.)
TEST(HalfFormats, Binary32NarrowsAsThePortableConversion) {
  const std::uint32_t low[] = {0x0000, 0x0001, 0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x2000, 0x3000,
                               0x5000, 0x7FFF, 0x8000, 0x8001, 0xC000, 0xFFFF};
  std::mt19937 g(7);
  std::vector<float> x;
  for (std::uint32_t hi = 0; hi < 65536; ++hi) {
    for (std::uint32_t l : low) x.push_back(from_bits(hi << 16 | l));
    x.push_back(from_bits(hi << 16 | (g() & 0xFFFF)));
  }
  x.resize(x.size() - 3);  // a length that leaves a remainder past eight at a time
  std::vector<std::uint16_t> many(x.size());
  to_16bit(PV_F16, x.data(), many.data(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::uint16_t want = to_16bit_without_f16c(PV_F16, x[i]);
    ASSERT_EQ(to_16bit(PV_F16, x[i]), want) << i;
    ASSERT_EQ(many[i], want) << i;
  }
}

// bfloat16 keeps its bit arithmetic: ties to even, NaN stays NaN, and many
// at once as one at a time.
TEST(HalfFormats, Bfloat16RoundsToNearestEven) {
  EXPECT_EQ(to_16bit(PV_BF16, from_bits(0x3F808000)), 0x3F80);  // tie, even below
  EXPECT_EQ(to_16bit(PV_BF16, from_bits(0x3F818000)), 0x3F82);  // tie, even above
  EXPECT_EQ(to_16bit(PV_BF16, from_bits(0x3F808001)), 0x3F81);
  EXPECT_EQ(to_16bit(PV_BF16, from_bits(0x7F800001)) & 0x7FC0, 0x7FC0);  // a NaN, quiet
  const std::vector<float> x{1.0f, -2.5f, 3.0e38f, 1.0e-40f, from_bits(0x3F818000)};
  std::vector<std::uint16_t> many(x.size());
  to_16bit(PV_BF16, x.data(), many.data(), x.size());
  std::vector<float> back(x.size());
  from_16bit(PV_BF16, many.data(), back.data(), many.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(many[i], to_16bit(PV_BF16, x[i]));
    EXPECT_EQ(bits(double(back[i])), bits(from_16bit(PV_BF16, many[i])));
  }
}

}  // namespace

}  // namespace sandbox_half_formats_test
