// The RoPE configurations of current models, generic over the scalar type:
// partial rotary, scaled speeds for long context (linear position
// interpolation, NTK-aware theta, dynamic NTK, YaRN, Llama 3.1's "llama3"
// rule) and Qwen2-VL's multi-section M-RoPE. The formulas and their sources
// are in docs/rope-configs.md; each is written here from the formula, not
// from another project's code.
//
// All speeds are those of ONE ladder over the R rotated components:
// w_k = theta^(-2k/R), k = 0 .. R/2 - 1, then scaled per pair.
#pragma once

#include "numerics/rope.h"
#include "numerics/scalar.h"

#include <cmath>
#include <vector>

namespace pv {

enum class rope_scaling_kind { none, linear, ntk, dynamic_ntk, yarn, llama3 };

struct rope_scaling {
  rope_scaling_kind kind = rope_scaling_kind::none;
  double factor = 1;            ///< s
  double low = 0;               ///< yarn: beta_slow; llama3: low_freq_factor
  double high = 0;              ///< yarn: beta_fast; llama3: high_freq_factor
  double original_length = 0;   ///< L0 (original_max_position_embeddings)
  double length = 0;            ///< dynamic NTK: the current sequence length L
  double attention_factor = 0;  ///< yarn: 0 means 0.1 ln s + 1
};

/// The base theta' the ladder uses: theta s^(R/(R-2)) (NTK-aware), theta (s L/L0 - (s-1))^(R/(R-2))
/// when L > L0 (dynamic NTK), theta otherwise.
template <class T>
T effective_theta(const rope_scaling& s, const T& theta, std::size_t R) {
  const T e = T(double(R)) / T(double(R - 2));
  if (s.kind == rope_scaling_kind::ntk) return theta * pow_(T(s.factor), e);
  if (s.kind == rope_scaling_kind::dynamic_ntk && s.length > s.original_length)
    return theta * pow_(T(s.factor) * T(s.length) / T(s.original_length) - T(s.factor - 1), e);
  return theta;
}

/// YaRN's attention factor sqrt(1/t) = 0.1 ln s + 1 (1 for s <= 1), or the one given; 1 for
/// the other kinds. Every rotated component is multiplied by it, so q.k by its square.
template <class T>
T rope_temperature(const rope_scaling& s) {
  if (s.kind != rope_scaling_kind::yarn) return T(1);
  if (s.attention_factor > 0) return T(s.attention_factor);
  return s.factor > 1 ? T(0.1) * log_(T(s.factor)) + T(1) : T(1);
}

/// YaRN's correction range [lo, hi] of pair indices: the dimension at which a
/// speed makes beta turns over L0, floor/ceil, clamped to [0, R - 1].
template <class T>
std::array<double, 2> yarn_correction_range(const rope_scaling& s, const T& theta, std::size_t R) {
  auto dim_at = [&](double beta) {
    return T(double(R)) * log_(T(s.original_length) / (T(beta) * 2 * pi<T>())) / (2 * log_(theta));
  };
  using std::ceil, std::floor;
  double lo = floor(convert<double>(dim_at(s.high))), hi = ceil(convert<double>(dim_at(s.low)));
  if (lo < 0) lo = 0;
  if (hi > double(R - 1)) hi = double(R - 1);
  return {lo, hi};
}

/// The speeds of the R/2 pairs of one ladder over R components under scaling s.
template <class T>
std::vector<T> scaled_speeds(std::size_t R, const T& theta, const rope_scaling& s) {
  std::vector<T> w = geometric_speeds<T>(R, effective_theta(s, theta, R));
  const T f = T(s.factor);
  switch (s.kind) {
    case rope_scaling_kind::linear:
      for (auto& v : w) v = v / f;
      break;
    case rope_scaling_kind::yarn: {
      // ramp r(k) = clamp((k - lo) / (hi - lo), 0, 1): 0 keeps w_k (fast pairs), 1 interpolates w_k/s
      auto [lo, hi] = yarn_correction_range(s, theta, R);
      if (hi == lo) hi += 0.001;
      for (std::size_t k = 0; k < w.size(); ++k) {
        T r = (T(double(k)) - T(lo)) / (T(hi) - T(lo));
        if (r < 0) r = 0;
        if (r > 1) r = 1;
        w[k] = w[k] / f * r + w[k] * (1 - r);
      }
      break;
    }
    case rope_scaling_kind::llama3: {
      // wavelength lambda = 2 pi / w: above L0/low divide by s, below L0/high keep, smooth between
      const T L0 = T(s.original_length), lo = T(s.low), hi = T(s.high);
      for (auto& v : w) {
        const T lambda = 2 * pi<T>() / v;
        if (lambda > L0 / lo) v = v / f;
        else if (!(lambda < L0 / hi)) {
          const T g = (L0 / lambda - lo) / (hi - lo);
          v = (1 - g) * v / f + g * v;
        }
      }
      break;
    }
    default:
      break;
  }
  return w;
}

/// A 1-D or M-RoPE layout over head_dim components of which R = sum(sections), from
/// component `offset` on (0: the first R), rotate with one scaled ladder theta^(-2k/R),
/// pair k's speed divided by factors[k] when factors are given (R/2 of them); pair k is
/// driven by the axis whose section holds component 2k (M-RoPE) or by axis 0 (one
/// section). The rest pass through.
template <class T>
rope_layout<T> rope_scaled_layout(std::size_t head_dim, const std::vector<std::size_t>& sections,
                                  const T& theta, pairing p, const rope_scaling& s, std::size_t offset = 0,
                                  const std::vector<T>& factors = {}) {
  rope_layout<T> L;
  L.head_dim = head_dim;
  L.n_axes = sections.size();
  std::size_t R = 0;
  for (auto v : sections) R += v;
  auto w = scaled_speeds<T>(R, theta, s);
  L.scale = rope_temperature<T>(s);
  std::size_t axis = 0, end = sections.empty() ? 0 : sections[0];
  for (std::size_t k = 0; k < w.size(); ++k) {
    while (2 * k >= end && axis + 1 < sections.size()) end += sections[++axis];
    auto ab = pair_indices(p, offset, R, k);
    L.pairs.push_back({ab[0], ab[1], axis, k < factors.size() ? T(w[k] / factors[k]) : w[k]});
  }
  return L;
}

}  // namespace pv
