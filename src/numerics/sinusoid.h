// The additive sinusoid of Vaswani et al. (2017):
//   p(m)_{2i} = sin(m w_i),  p(m)_{2i+1} = cos(m w_i),  w_i = base^(-2i/d).
// The chapter's 2-d example (problem 5) is d = 2, w_0 = 1: p(m) = (sin m, cos m).
#pragma once

#include "numerics/fault.h"
#include "numerics/matrix.h"

#include <cassert>
#include <vector>

namespace pv {

/// w_i = base^(-2i/d), i = 0 .. d/2 - 1, computed in T.
template <class T>
std::vector<T> geometric_speeds(std::size_t d, const T& base) {
  assert(d % 2 == 0);
  std::vector<T> w(d / 2);
  const bool integer_exponent = fault_is(fault::speed_integer_exponent);  // planted fault
  for (std::size_t i = 0; i < d / 2; ++i)
    w[i] = integer_exponent ? pow_(base, T(-T(static_cast<double>(2 * i / d))))
                            : pow_(base, T(-T(2 * i) / T(d)));
  return w;
}

/// One sinusoid row for position m with the given speeds (length d = 2 |w|).
template <class T>
void sinusoid_row(double m, const std::vector<T>& w, T* out) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    T angle = convert<T>(fault_is(fault::positions_ignored) ? 0.0 : m) * w[i];  // planted fault
    const bool swap = fault_is(fault::sinusoid_swap);
    out[2 * i] = swap ? cos_(angle) : sin_(angle);
    out[2 * i + 1] = swap ? sin_(angle) : cos_(angle);
  }
}

/// The n x d matrix of sinusoid rows for the given positions.
template <class T>
matrix<T> sinusoid(const std::vector<double>& positions, std::size_t d, const T& base) {
  auto w = geometric_speeds<T>(d, base);
  if (fault_is(fault::sinusoid_speed_off_by_one))  // planted fault: pair i gets w_{i+1}
    for (std::size_t i = 0; i < w.size(); ++i)
      w[i] = pow_(base, T(-T(2 * (i + 1)) / T(d)));
  matrix<T> P(positions.size(), d);
  for (std::size_t r = 0; r < positions.size(); ++r) sinusoid_row(positions[r], w, P.row(r));
  return P;
}

/// The same rows with explicit speeds.
template <class T>
matrix<T> sinusoid_with_speeds(const std::vector<double>& positions, const std::vector<T>& w) {
  matrix<T> P(positions.size(), 2 * w.size());
  for (std::size_t r = 0; r < positions.size(); ++r) sinusoid_row(positions[r], w, P.row(r));
  return P;
}

/// The fixed linear map taking p(m) to p(m + k): block-diagonal 2 x 2 blocks
/// [[cos kw, sin kw], [-sin kw, cos kw]] acting on (sin, cos) pairs, so that
/// p(m + k) = M_k p(m) (as column vectors).
template <class T>
matrix<T> sinusoid_shift_map(const std::vector<T>& w, double k) {
  const std::size_t d = 2 * w.size();
  matrix<T> M(d, d);
  for (std::size_t i = 0; i < w.size(); ++i) {
    T a = convert<T>(k) * w[i], c = cos_(a), s = sin_(a);
    // sin(x + a) = sin x cos a + cos x sin a ; cos(x + a) = cos x cos a - sin x sin a
    M(2 * i, 2 * i) = c;
    M(2 * i, 2 * i + 1) = s;
    M(2 * i + 1, 2 * i) = -s;
    M(2 * i + 1, 2 * i + 1) = c;
  }
  return M;
}

}  // namespace pv
