// The high-precision reference types: one setting, used everywhere.
//
// `pv::hp` is an MPFR float (correctly rounded +,-,*,/,sqrt,exp,sin,cos) whose
// precision is set once per process with `pv::ref::set_precision_bits`. Every
// reference value in posverify is computed in this type; pi and the
// elementary functions come from MPFR, never through `double`.
// `pv::interval` is the MPFI type at the same precision, for certified
// enclosures.
#pragma once

#include <boost/multiprecision/mpfi.hpp>
#include <boost/multiprecision/mpfr.hpp>

#include <string>

namespace pv {

using hp = boost::multiprecision::number<
    boost::multiprecision::mpfr_float_backend<0>,
    boost::multiprecision::et_off>;
using interval = boost::multiprecision::number<
    boost::multiprecision::mpfi_float_backend<0>,
    boost::multiprecision::et_off>;

namespace ref {

/// Default reference precision in bits (the issue asks for at least 256).
inline constexpr unsigned default_precision_bits = 256;

/// Sets the precision of every hp and interval created afterwards to at least
/// `bits` bits (Boost 1.74 takes decimal digits; we round up).
void set_precision_bits(unsigned bits);

/// The precision, in bits, that a new hp value actually has.
unsigned precision_bits();

/// Unit roundoff of hp: 2^(1 - precision_bits) / 2.
hp unit_roundoff();

/// All significant digits of `x` (enough to round-trip), scientific when
/// needed; "0" for zero.
std::string to_decimal(const hp& x);

/// `x` with exactly `digits` significant digits.
std::string to_decimal(const hp& x, int digits);

/// Parses a decimal string at full precision (reference digits stay strings).
hp parse(const std::string& s);

/// pi at the current precision (mpfr_const_pi).
hp pi();

}  // namespace ref
}  // namespace pv
