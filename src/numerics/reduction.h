// Summation orders. `sequential` is the ordinary left-to-right loop;
// `correctly_rounded` computes the sum exactly (MPFR at a precision wide
// enough to hold every product of two IEEE numbers without rounding) and
// rounds once, so its result does not depend on the order of the terms.
#pragma once

#include "numerics/scalar.h"

#include <cstddef>
#include <mpfr.h>

namespace pv {

enum class reduction { sequential, correctly_rounded };

inline const char* to_string(reduction r) {
  return r == reduction::sequential ? "sequential" : "correctly_rounded";
}

/// sum_i x[i] * y[i] (y may be null for a plain sum), reduced as `r`.
template <class T>
T reduce_products(const T* x, const T* y, std::size_t n, std::size_t stride_y,
                  reduction r) {
  if (r == reduction::sequential || !is_ieee_v<T>) {
    T s = T(0);
    for (std::size_t i = 0; i < n; ++i) s += y ? x[i] * y[i * stride_y] : x[i];
    return s;
  }
  if constexpr (is_ieee_v<T>) {
    // Exponents of double products lie in [-2148, 2048]; 4400 bits plus
    // 64 bits of carry room hold any sum of up to 2^64 such products exactly.
    mpfr_t acc, term;
    mpfr_init2(acc, 4500);
    mpfr_init2(term, 128);
    mpfr_set_zero(acc, 1);
    for (std::size_t i = 0; i < n; ++i) {
      mpfr_set_d(term, static_cast<double>(x[i]), MPFR_RNDN);
      if (y) mpfr_mul_d(term, term, static_cast<double>(y[i * stride_y]), MPFR_RNDN);
      mpfr_add(acc, acc, term, MPFR_RNDN);  // exact at this precision
    }
    T out;
    if constexpr (std::is_same_v<T, float>) out = mpfr_get_flt(acc, MPFR_RNDN);
    else out = static_cast<T>(mpfr_get_d(acc, MPFR_RNDN));
    mpfr_clear(acc);
    mpfr_clear(term);
    return out;
  }
  return T(0);
}

}  // namespace pv
