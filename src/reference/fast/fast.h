// The fast reference tier: attention, RoPE and the sinusoid in double-word
// arithmetic (about 106 bits), vectorised and spread over the cores, with a
// certified absolute error bound for every output. MPFR (`pv::hp`) stays the
// judge of small cases; this tier makes model-scale cases affordable
// (docs/fast_reference.md derives every bound and says why not libqd).
//
// Inputs are binary64 (every float32/float16/bfloat16 input is one exactly).
// Each output is hi + lo with |(hi + lo) - exact| <= bound, where exact is
// the real-number value of the same formula on the same inputs.
#pragma once

#include "reference/fast/dd.h"
#include "reference/mp.h"

#include <cstddef>
#include <vector>

namespace pv::fast {

/// Relative error of exp_dd (in u^2): a degree-10 polynomial after a
/// 2^(j/256) table reduction, see docs/fast_reference.md section 2.
inline constexpr double exp_err = 64.0;
/// Absolute error of sin_dd and cos_dd of the reduced argument, plus the
/// reduction mod pi/2 (in u^2), for |angle| < 2^21.
inline constexpr double trig_err = 267.0;
/// The largest |angle| the trigonometric reduction accepts.
inline constexpr double max_angle = 0x1p21;

/// exp(t) to relative error exp_err u^2 for -600 <= t.hi <= 600.
dd exp_dd(dd t);
/// out[i] = exp_dd(t[i]) for i < n, the same values bit for bit, vectorised
/// (the attention's weights); throws as exp_dd would on any t[i].
void exp_many(const dd* t, dd* out, std::size_t n);
/// sin(a) and cos(a) to absolute error trig_err u^2 (plus the error already
/// in a), |a.hi| < max_angle.
void sincos_dd(dd a, dd& s, dd& c);

/// x rounded to a double-word: |x - (hi + lo)| <= u^2 |x| (1 + 2u).
dd to_dd(const hp& x);
/// hi + lo exactly, at the current hp precision (>= 107 bits).
hp to_hp(dd x);

/// A row-major matrix of double-word values with a bound per entry.
struct result {
  std::size_t rows = 0, cols = 0;
  std::vector<dd> value;
  std::vector<double> bound;  ///< |value - exact| <= bound, entry by entry
  /// Per entry: bound / sum_j w_ij |v_jc| for attention (the error relative
  /// to the condition-free magnitude of the entry), bound / |value| else.
  std::vector<double> relative;
};

/// out = softmax(Q K^T / sqrt(d)) V, Q n_q x d, K n_k x d, V n_k x d_v, all
/// row-major. Throws std::domain_error on a non-finite input or a score
/// too large for the bound (|score| > 2^900). `threads` 0: all cores.
result attention(const double* q, const double* k, const double* v, std::size_t n_q,
                 std::size_t n_k, std::size_t d, std::size_t d_v, unsigned threads = 0);

/// One rotated pair of a RoPE layout: components a and b turn by
/// pos[axis] * speed (speed given in hp, rounded once to a double-word).
struct rope_pair {
  std::size_t a, b, axis;
  hp speed;
};

/// RoPE of the n rows of X (n x head_dim), positions n x n_axes. Components
/// that no pair names pass through unchanged (partial rotary).
result rope(const double* x, const double* pos, std::size_t n, std::size_t head_dim,
            std::size_t n_axes, const std::vector<rope_pair>& pairs, unsigned threads = 0);

/// The same with every rotated component then multiplied by `scale` (YaRN's
/// attention factor, `rope_layout::scale`; docs/fast_reference.md section 5).
result rope_scaled(const double* x, const double* pos, std::size_t n, std::size_t head_dim,
                   std::size_t n_axes, const std::vector<rope_pair>& pairs, const hp& scale,
                   unsigned threads = 0);

/// Sinusoid rows (sin(m w_i), cos(m w_i)) for every position m.
result sinusoid(const std::vector<double>& positions, const std::vector<hp>& speeds,
                unsigned threads = 0);

}  // namespace pv::fast
