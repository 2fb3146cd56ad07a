// What every property file includes: generators, the runner, and the
// comparison helpers that fail with lossless figures.
#pragma once

#include "properties/generators.h"
#include "properties/runner.h"

#include "numerics/error_bounds.h"
#include "numerics/numerics.h"

#include <string>

namespace pv::prop {

/// Fails unless |a_ij - b_ij| <= bound_ij for every entry. The message names
/// the type, the entry, both values, the difference and the bound, losslessly.
template <class T>
void expect_within(const std::string& what, const matrix<T>& a, const matrix<T>& b,
                   const matrix<hp>& bound) {
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) {
      hp d = abs(convert<hp>(a(i, j)) - convert<hp>(b(i, j)));
      if (!(d <= bound(i, j)))
        fail(what + " [" + type_name<T>() + "] differs at (" + std::to_string(i) + ", " +
             std::to_string(j) + "): " + to_decimal(a(i, j)) + " vs " + to_decimal(b(i, j)) +
             ", |diff| = " + ref::to_decimal(d, 17) + " > bound " +
             ref::to_decimal(bound(i, j), 17));
    }
}

/// Fails unless |a - b| <= bound.
template <class T>
void expect_close(const std::string& what, const T& a, const T& b, const hp& bound) {
  hp d = abs(convert<hp>(a) - convert<hp>(b));
  if (!(d <= bound))
    fail(what + " [" + type_name<T>() + "]: " + to_decimal(a) + " vs " + to_decimal(b) +
         ", |diff| = " + ref::to_decimal(d, 17) + " > bound " + ref::to_decimal(bound, 17));
}

}  // namespace pv::prop
