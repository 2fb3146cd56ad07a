#include "reference/mp.h"

#include <cmath>
#include <mpfr.h>

namespace pv::ref {

namespace {
// Boost's conversion from decimal digits to bits (digits10_2_2 in 1.74).
unsigned bits_for_digits10(unsigned d10) {
  return boost::multiprecision::detail::digits10_2_2(d10);
}
}  // namespace

void set_precision_bits(unsigned bits) {
  if (bits < 64) bits = 64;
  unsigned d10 = 1;
  while (bits_for_digits10(d10) < bits) ++d10;
  hp::default_precision(d10);
  interval::default_precision(d10);
}

unsigned precision_bits() {
  hp x = 0;
  return static_cast<unsigned>(mpfr_get_prec(x.backend().data()));
}

hp unit_roundoff() {
  hp u = 1;
  return ldexp(u, -static_cast<int>(precision_bits()));
}

std::string to_decimal(const hp& x) {
  if (x == 0) return "0";
  // digits that round-trip: ceil(bits * log10(2)) + 1
  int digits = static_cast<int>(std::ceil(precision_bits() * 0.30102999566398120)) + 1;
  return to_decimal(x, digits);
}

std::string to_decimal(const hp& x, int digits) {
  if (x == 0) return "0";
  return x.str(digits, std::ios_base::scientific);
}

hp parse(const std::string& s) { return hp(s); }

hp pi() {
  hp r = 0;
  mpfr_const_pi(r.backend().data(), MPFR_RNDN);
  return r;
}

namespace {
// Set the default once at start-up so that every translation unit sees it.
struct default_precision_init {
  default_precision_init() { set_precision_bits(default_precision_bits); }
} init_;
}  // namespace

}  // namespace pv::ref
