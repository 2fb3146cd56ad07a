// The weight an attention kernel gives each key, read off black-box: with
// v = I the output row is the row's softmax weights (d_v keys per call, in
// blocks of d_v one-hot columns, so the probe keeps the failing shape's n_q,
// d and d_v). Two score patterns: q = 0 (every score equal: a key that gets
// no weight shows as 0) and scores rising with the key index (the maximum
// grows from tile to tile, so a running sum not rescaled, or parts combined
// without their exp(m_part - m) weights, show as factors per block of keys).
// attention.shapes names with it what no accuracy class explains: keys past
// a tile dropped, the last key of a partial tile lost, an online softmax not
// rescaled, a split-K combine without its weights (shapes.cpp).
#pragma once

#include "blackbox/check_run.h"
#include "blackbox/shapes.h"

#include <string>
#include <vector>

namespace pv::blackbox {

/// One probe's weights at one n_k: exact (from the values as sent) and read.
struct key_weight_reading {
  std::size_t n_k = 0;
  bool rising = false;  ///< scores rising with the key index (else all equal, q = 0)
  std::vector<double> exact, read;
};

/// What the readings say, or "" when every read weight is the exact one
/// within relative tolerance `tol`. Pure (tests/blackbox/key_weights_test.cpp).
/// `normaliser`: what a probe of the normaliser showed (normaliser.h), told
/// when every weight is scaled by one factor in place of the guess that a
/// running sum is not rescaled when the maximum grows.
std::string key_weight_finding(const std::vector<key_weight_reading>& rs, double tol,
                               const std::string& normaliser = "");

/// Whether a reading key_weight_finding tells shows every weight scaled by
/// one factor (the normaliser wrong, the keys right against each other).
bool key_weights_scaled(const std::vector<key_weight_reading>& rs, double tol);

/// Runs the probes at shape s (its n_q, d, d_v; at its n_k and, up to 1024
/// keys, at 2 n_k + 1) on the kernel of cx in dtype T and reads output row
/// `row`. Empty (and `error` set) when a probe call does not end ok.
template <class T>
std::vector<key_weight_reading> read_key_weights(const check_run& cx, const shape& s, std::size_t row,
                                                 std::string& error);

/// The relative tolerance of a read weight: the output's rounding in the
/// run's class (16 u) and a sum of n_k weights in float32 (2 n_k u_f32), at
/// least 1e-3.
double key_weight_tolerance(const check_run& cx, double unit_roundoff, std::size_t n_k);

}  // namespace pv::blackbox
