// The RoPE tolerances of rope_model.h in binary64, for the first look at an
// entry (rope_rotated.h): the same formulas, their constants (the speeds'
// error terms, e_rot, the floor, the measured speeds) rounded to binary64 once
// per law instead of recomputed in MPFR for every row.
//
// Error. Every term of a tolerance is non-negative, so each binary64 operation
// moves the result by at most u = 2^-53 relatively: a constant rounded once,
// then at most 8 products and sums per component (plus one per axis), about
// 12u in all, and the exact tolerance's own MPFR roundings (2^-p, p >= 64)
// are smaller still. Callers take the tolerance as within kRelative of the
// MPFR one, which covers that 2^11 times over; below kSmallest (where binary64
// loses relative precision to subnormals) the figure is taken as 0, and when
// not finite it is not used: the entry is judged exactly. tests/blackbox/
// rope_tolerance_fast_test.cpp checks the agreement on every configuration.
#pragma once

#include "blackbox/rope_model.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace pv::blackbox {

class rope_tolerance_fast {
 public:
  /// |binary64 tolerance - MPFR tolerance| <= kRelative * MPFR tolerance.
  static constexpr double kRelative = 0x1p-40;
  /// Below this a binary64 tolerance is not trusted (subnormal range, with margin).
  static constexpr double kSmallest = 0x1p-960;

  /// The tolerance of the rotation laws (rotation_tolerance) when `ks` is
  /// given, else of `reference` (component_tolerance).
  rope_tolerance_fast(const rope_layout<hp>& L, const pv_rope_config& c, const rope_units& u,
                      const kernel_speeds* ks);  // rope_tolerance_fast.cpp

  /// The tolerance of every component of one row (t: d values).
  template <class T>
  void row(const double* pos, const T* x, double* t) const {
    if (rotation_) {
      for (std::size_t c = 0; c < d_; ++c) {
        double ang = 0;
        for (std::size_t a = 0; a < na_; ++a) ang += std::fabs(pos[a]) * w_[a * d_ + c];
        const double r = std::fabs(double(x[c])) + std::fabs(double(x[partner_[c]]));
        t[c] = scale_ * r * (position_[c] * ang + rounding_) + floor_;
      }
      return;
    }
    for (std::size_t c = 0; c < d_; ++c) t[c] = 0;
    for (std::size_t i : passing_) t[i] = pass_ * std::fabs(double(x[i])) + eta_;
    for (std::size_t k = 0; k < pairs_.size(); ++k) {
      const auto& p = pairs_[k];
      const double r = std::fabs(double(x[p.a])) + std::fabs(double(x[p.b]));
      t[p.a] = t[p.b] = scale_ * r * (std::fabs(pos[p.axis]) * pair_[k] + rounding_) + floor_;
    }
  }

  /// A binary64 tolerance t_d as a lower bound of the MPFR one: 0 below
  /// kSmallest (a tolerance is never negative), -1 (no bound: the entry is
  /// judged exactly) when t_d is not finite.
  static double lower(double t_d) {
    if (!std::isfinite(t_d) || t_d < 0) return -1;
    return t_d >= kSmallest ? t_d * (1 - kRelative) : 0.0;
  }

 private:
  std::size_t d_, na_;
  bool rotation_;
  // the rotation laws: per axis and component, w' + 8u; per component eps_m / (1 - eps_m)
  std::vector<double> w_, position_;
  std::vector<std::size_t> partner_;
  // `reference`: per pair, w_k (eps_w(k) (+ eps_s) + u_angle); pass-through components
  std::vector<double> pair_;
  struct components {
    std::size_t a, b, axis;
  };
  std::vector<components> pairs_;
  std::vector<std::size_t> passing_;
  double pass_ = 0, eta_ = 0;
  double rounding_ = 0, floor_ = 0, scale_ = 1;
};

}  // namespace pv::blackbox
