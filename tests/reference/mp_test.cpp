// src/reference/mp.cpp: is the precision really set? A new hp (and interval) has
// at least the bits asked for, arithmetic is carried out at that precision
// (1/3 differs from its 64-bit rounding), and the unit roundoff follows.
#include "reference/mp.h"

#include <gtest/gtest.h>
#include <mpfi.h>
#include <mpfr.h>

namespace pv::ref {
namespace reference_mp_test {  // this file's names: a unity build compiles several test files as one
namespace {

/// Restores the precision the rest of the suite expects.
struct precision_guard {
  unsigned saved = precision_bits();
  ~precision_guard() { set_precision_bits(saved); }
};

TEST(ReferencePrecision, NewValuesCarryTheBitsAskedFor) {
  precision_guard g;
  for (unsigned bits : {64u, 128u, 256u, 1000u, 4096u}) {
    set_precision_bits(bits);
    const unsigned got = precision_bits();
    EXPECT_GE(got, bits);
    EXPECT_LT(got, bits + 32) << "Boost takes decimal digits; the rounding up stays within a few";
    hp x = 1;
    EXPECT_EQ(mpfr_get_prec(x.backend().data()), static_cast<mpfr_prec_t>(got));
    interval i = 1;
    EXPECT_GE(mpfi_get_prec(i.backend().data()), static_cast<mpfr_prec_t>(bits));
    EXPECT_EQ(unit_roundoff(), ldexp(hp(1), -static_cast<int>(got)));
  }
}

TEST(ReferencePrecision, ArithmeticHappensAtThatPrecision) {
  precision_guard g;
  set_precision_bits(64);
  const int p64 = static_cast<int>(precision_bits());
  const hp third64 = hp(1) / 3;
  EXPECT_EQ(mpfr_get_prec(third64.backend().data()), p64);
  set_precision_bits(256);
  const hp third = hp(1) / 3;
  // to_decimal(x, 60) shows 60 digits after the point (Boost's scientific
  // format): all 3s for the 256-bit third; the 64-bit third is off from the
  // 20th digit on
  EXPECT_EQ(to_decimal(third, 60), "3." + std::string(60, '3') + "e-01");
  EXPECT_NE(to_decimal(third64, 60), to_decimal(third, 60));
  EXPECT_LE(abs(third * 3 - 1), 2 * unit_roundoff());
  const hp off = abs(third - third64);
  // 1/3 rounded to p bits is off by 2^-(p+1) times 1/3 or 2/3
  EXPECT_GT(off, ldexp(hp(1), -(p64 + 4))) << "the 64-bit third is rounded at its own precision";
  EXPECT_LT(off, ldexp(hp(1), -(p64 + 1)));
}

TEST(ReferencePrecision, BelowTheFloorIsRaisedTo64Bits) {
  precision_guard g;
  set_precision_bits(8);
  EXPECT_GE(precision_bits(), 64u);
}

TEST(ReferencePrecision, PiIsMpfrsAtFullPrecision) {
  precision_guard g;
  set_precision_bits(256);
  // 40 digits after the point, the last rounded (...8841971|69)
  EXPECT_EQ(to_decimal(pi(), 40), "3.1415926535897932384626433832795028841972e+00");
  EXPECT_LE(abs(parse("0.1") - hp(1) / 10), unit_roundoff() / 8) << "parsed at full precision, not via double";
}

}  // namespace
}  // namespace reference_mp_test
}  // namespace pv::ref
