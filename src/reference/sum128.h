// Sums of products of doubles rounded to 128 bits after every addition, bit
// for bit as MPFR computes them at a precision of 128 bits (mpfr_add, round to
// nearest, ties to even), without MPFR: a running sum is a sign, a 128-bit
// significand and an exponent, and each product of two doubles (at most 106
// bits) is exact in it.
//
// Why: the exact logits of the attend laws (laws/attend/problem.h,
// exact_dot) are sums over d components of q_l k_l and |q_l k_l|, five MPFR
// calls per component; at the shapes of real models (8192 keys of 128
// components per row) they were a fifth of a check. At the default reference
// precision of `check` (128 bits) the same values come from this in a few
// integer operations per component. Another precision, or a NaN or an
// infinity among the inputs, takes MPFR's own path (the caller's).
//
// The addition is the textbook one (Goldberg, "What every computer scientist
// should know about floating-point arithmetic", 1991, section 1.4 on guard
// and sticky bits): align the smaller operand on a 256-bit window, add or
// subtract, keep 128 bits, round to nearest-even by the first dropped bit and
// whether any other dropped bit is set. tests/reference/sum128_test.cpp
// compares it with MPFR on random and adversarial operands.
#pragma once

// <cstdint> before <mpfr.h>: MPFR declares mpfr_set_uj_2exp only when
// intmax_t is already known
#include <cstdint>
#include <mpfr.h>

#include <bit>
#include <cstring>

namespace pv::ref {

class sum128 {
 public:
  __extension__ typedef unsigned __int128 u128;  // GCC and clang (-Wpedantic: not ISO C++)

  /// The value 0 (+0, as mpfr_set_zero(x, 1)).
  sum128() = default;

  /// The exact product of two finite doubles: (-1)^neg m 2^e, m < 2^106.
  struct product {
    bool neg;
    u128 m;
    std::int64_t e;
  };
  static product exact_product(double a, double b) {
    std::uint64_t ma, mb;
    std::int64_t ea, eb;
    const bool sa = split(a, ma, ea), sb = split(b, mb, eb);
    return {sa != sb, u128(ma) * mb, ea + eb};
  }

  /// *this += p, or += |p|, rounded to 128 bits (one product split once
  /// serves a sum of products and a sum of their absolute values). The
  /// product's factors finite (the caller checks).
  void add(const product& p) { add(p.neg, p.m, p.e); }
  void add_abs(const product& p) { add(false, p.m, p.e); }

  /// *this += (-1)^neg m 2^e (exact operand, m < 2^128), rounded to 128 bits.
  void add(bool neg, u128 m, std::int64_t e) {
    if (m == 0) {  // adding a zero: only a zero sum's sign can change (-0 + -0 = -0, else +0)
      if (m_ == 0) neg_ = neg_ && neg;
      return;
    }
    const int z = clz(m);  // normalised: the top bit at 127 (exact: m has at most 128 bits)
    m <<= z;
    e -= z;
    if (m_ == 0) {
      neg_ = neg, m_ = m, e_ = e;
      return;
    }
    // x the operand of the larger exponent (or significand), y the other
    bool xn = neg_, yn = neg;
    u128 xm = m_, ym = m;
    std::int64_t xe = e_, ye = e;
    if (ye > xe || (ye == xe && ym > xm)) {
      std::swap(xn, yn), std::swap(xm, ym), std::swap(xe, ye);
    }
    // the 256-bit window: X = xm 2^128, Y = ym 2^(128 - d) and `sticky` for
    // Y's bits below the window
    const std::uint64_t d = std::uint64_t(xe - ye);
    u128 yh = 0, yl = 0;
    bool sticky = false;
    if (d == 0) {
      yh = ym;
    } else if (d < 128) {
      yh = ym >> d;
      yl = ym << (128 - d);
    } else if (d == 128) {
      yl = ym;
    } else if (d < 256) {
      yl = ym >> (d - 128);
      sticky = (ym << (256 - d)) != 0;
    } else {
      sticky = true;
    }
    u128 h = xm, l = 0;
    bool carry = false;
    if (xn == yn) {
      l = yl;  // 0 + yl
      const u128 nh = h + yh;
      carry = nh < h;
      h = nh;
    } else {
      // X - Y - (sticky ? a fraction of the last place : 0): with sticky,
      // subtract one more unit of the window's last place and keep sticky
      // (the exact difference lies strictly between that and one unit more)
      const u128 sub_l = yl + (sticky ? 1 : 0);
      const bool borrow_l = sub_l < yl || l < sub_l;  // l is 0: a borrow unless sub_l is 0
      l = l - sub_l;
      h = h - yh - (borrow_l ? 1 : 0);
      // exact cancellation: +0 in round to nearest (never with sticky: then
      // Y is below 2^128 units of the window and X at least 2^255)
      if (h == 0 && l == 0) {
        neg_ = false, m_ = 0, e_ = 0;
        return;
      }
    }
    // the result's significand: the 128 bits from its top bit, the rest rounds
    std::int64_t re = xe;
    u128 rm, rest;  // rest: the dropped bits below rm, left-aligned
    if (carry) {    // a 257-bit sum: shift right by one
      rm = (h >> 1) | (u128(1) << 127);
      rest = (h << 127) | (l >> 1);
      sticky = sticky || (l & 1) != 0;
      re += 1;
    } else if (h != 0) {
      const int s = clz(h);
      rm = s == 0 ? h : (h << s) | (l >> (128 - s));
      rest = s == 0 ? l : l << s;
      re -= s;
    } else {  // h = 0 (a cancellation of the top half): the value is in l and below
      const int s = clz(l);
      rm = l << s;  // exact: no bit of the window is dropped (128 - s <= 128 bits in l)
      rest = 0;
      re -= 128 + s;
    }
    const bool round_bit = (rest >> 127) != 0;
    sticky = sticky || (rest << 1) != 0;
    if (round_bit && (sticky || (rm & 1) != 0)) {
      ++rm;
      if (rm == 0) {  // 2^128: one bit more
        rm = u128(1) << 127;
        ++re;
      }
    }
    neg_ = xn, m_ = rm, e_ = re;
  }

  /// Sets x (of precision 128) to this value, exactly.
  void get(mpfr_ptr x) const {
    if (m_ == 0) {
      mpfr_set_zero(x, neg_ ? -1 : 1);
      return;
    }
    // the top 64 bits times 2^64, plus the low 64 (an integer below 2^128),
    // then scaled by 2^e: each step exact at 128 bits, and no temporary
    // (mpfr_add_ui holds its operand on the stack; unsigned long is 64 bits)
    static_assert(sizeof(unsigned long) == 8);
    mpfr_set_uj_2exp(x, std::uint64_t(m_ >> 64), 64, MPFR_RNDN);
    mpfr_add_ui(x, x, static_cast<unsigned long>(std::uint64_t(m_)), MPFR_RNDN);
    mpfr_mul_2si(x, x, static_cast<long>(e_), MPFR_RNDN);
    if (neg_) mpfr_neg(x, x, MPFR_RNDN);
  }

  bool is_zero() const { return m_ == 0; }

 private:
  static int clz(u128 v) {
    const auto hi = std::uint64_t(v >> 64);
    return hi != 0 ? std::countl_zero(hi) : 64 + std::countl_zero(std::uint64_t(v));
  }
  /// x = (-1)^sign m 2^e with m an integer below 2^53; returns the sign.
  static bool split(double x, std::uint64_t& m, std::int64_t& e) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const auto be = std::int64_t((bits >> 52) & 0x7ff);
    m = bits & ((std::uint64_t(1) << 52) - 1);
    if (be == 0) {
      e = -1074;  // zero or subnormal
    } else {
      m |= std::uint64_t(1) << 52;
      e = be - 1075;
    }
    return (bits >> 63) != 0;
  }

  bool neg_ = false;
  u128 m_ = 0;
  std::int64_t e_ = 0;
};

}  // namespace pv::ref
