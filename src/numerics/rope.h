// Rotary position encoding (Su et al., 2021), generic over the scalar type.
//
// A layout lists the rotated pairs: components (a, b) of a head, the position
// axis that drives them, and their speed w. At position p the pair turns by
// the angle p[axis] * w:
//   x'_a = x_a cos - x_b sin,   x'_b = x_a sin + x_b cos.
// 1-D RoPE is one axis; FLUX.1's multi-axis RoPE splits the head by
// `axes_dim` (default 16 + 56 + 56, axes = image number, row, column), each
// axis with its own ladder theta^(-2k/axes_dim[a]).
#pragma once

#include "numerics/attention.h"
#include "numerics/matrix.h"
#include "numerics/sinusoid.h"

#include <array>
#include <cassert>
#include <numeric>
#include <string>
#include <vector>

namespace pv {

/// Which components form pair i inside a block of `dim` components.
enum class pairing {
  adjacent,  ///< (2i, 2i+1): the paper, llama.cpp's "normal" mode, FLUX.1
  halves     ///< (i, i + dim/2): GPT-NeoX / Hugging Face rotate_half
};

inline const char* to_string(pairing p) { return p == pairing::adjacent ? "adjacent" : "halves"; }

template <class T>
struct rope_pair {
  std::size_t a, b;   ///< the two components rotated together
  std::size_t axis;   ///< which position coordinate drives the angle
  T speed;            ///< radians per unit of position
};

template <class T>
struct rope_layout {
  std::size_t head_dim = 0;
  std::size_t n_axes = 1;
  std::vector<rope_pair<T>> pairs;
  T scale = T(1);  ///< every rotated component times this (YaRN's attention factor, rope_scaling.h)
};

/// Component indices of pair i in a block of `dim` starting at `offset`.
inline std::array<std::size_t, 2> pair_indices(pairing p, std::size_t offset, std::size_t dim,
                                               std::size_t i) {
  return p == pairing::adjacent ? std::array<std::size_t, 2>{offset + 2 * i, offset + 2 * i + 1}
                                : std::array<std::size_t, 2>{offset + i, offset + i + dim / 2};
}

/// 1-D RoPE with explicit speeds (head_dim = 2 |speeds|).
template <class T>
rope_layout<T> rope_with_speeds(const std::vector<T>& speeds, pairing p) {
  rope_layout<T> L;
  L.head_dim = 2 * speeds.size();
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    auto ab = pair_indices(p, 0, L.head_dim, i);
    L.pairs.push_back({ab[0], ab[1], 0, speeds[i]});
  }
  return L;
}

/// 1-D RoPE with the ladder w_i = theta^(-2i/d).
template <class T>
rope_layout<T> rope_ladder(std::size_t d, const T& theta, pairing p) {
  return rope_with_speeds(geometric_speeds<T>(d, theta), p);
}

/// Multi-axis RoPE: axis a owns axes_dim[a] consecutive components and the
/// ladder theta^(-2k/axes_dim[a]), k = 0 .. axes_dim[a]/2 - 1.
template <class T>
rope_layout<T> rope_axes(const std::vector<std::size_t>& axes_dim, const T& theta, pairing p) {
  rope_layout<T> L;
  L.n_axes = axes_dim.size();
  L.head_dim = std::accumulate(axes_dim.begin(), axes_dim.end(), std::size_t{0});
  std::size_t offset = 0;
  for (std::size_t ax = 0; ax < axes_dim.size(); ++ax) {
    auto w = geometric_speeds<T>(axes_dim[ax], theta);
    for (std::size_t k = 0; k < w.size(); ++k) {
      auto ab = pair_indices(p, offset, axes_dim[ax], k);
      L.pairs.push_back({ab[0], ab[1], ax, w[k]});
    }
    offset += axes_dim[ax];
  }
  return L;
}

/// FLUX.1's configuration (ComfyUI comfy/model_detection.py): axes_dim
/// [16, 56, 56], theta 10000, adjacent pairs within each axis.
inline std::vector<std::size_t> flux_axes_dim() { return {16, 56, 56}; }
template <class T>
rope_layout<T> rope_flux() {
  auto L = rope_axes<T>(flux_axes_dim(), T(10000), pairing::adjacent);
  if (fault_is(fault::flux_axes_swapped))  // planted fault: rows and columns swapped
    for (auto& pr : L.pairs)
      if (pr.axis != 0) pr.axis = 3 - pr.axis;
  return L;
}

/// Rotates one head vector in place; pos has layout.n_axes coordinates.
template <class T>
void rope_rotate(const rope_layout<T>& L, const double* pos, T* x) {
  for (const auto& pr : L.pairs) {
    const bool off = fault_is(fault::rope_position_off_by_one) && (&pr - L.pairs.data()) % 2;
    const double p = fault_is(fault::positions_ignored) ? 0.0 : pos[pr.axis];  // planted fault
    T angle = convert<T>(p + (off ? 1.0 : 0.0)) * pr.speed;
    T c = cos_(angle), s = sin_(angle);
    T xa = x[pr.a], xb = x[pr.b];
    x[pr.a] = xa * c - xb * s;
    x[pr.b] = fault_is(fault::rope_sine_sign) ? xb * c - xa * s : xa * s + xb * c;
    if (L.scale != T(1)) {
      x[pr.a] *= L.scale;
      x[pr.b] *= L.scale;
    }
  }
}

/// Rotates every row i of X by positions[i] (n_axes coordinates per row).
template <class T>
matrix<T> rope_apply(const rope_layout<T>& L, const matrix<T>& X,
                     const std::vector<std::vector<double>>& positions) {
  assert(X.cols == L.head_dim && positions.size() == X.rows);
  matrix<T> R = X;
  for (std::size_t i = 0; i < X.rows; ++i) {
    assert(positions[i].size() == L.n_axes);
    rope_rotate(L, positions[i].data(), R.row(i));
  }
  return R;
}

/// 1-D positions as rows of one coordinate.
inline std::vector<std::vector<double>> positions_1d(const std::vector<double>& p) {
  std::vector<std::vector<double>> r;
  for (double v : p) r.push_back({v});
  return r;
}

/// FLUX image ids of an H x W grid of patches, row-major: (image, row, col).
inline std::vector<std::vector<double>> flux_grid_ids(std::size_t H, std::size_t W,
                                                      double image = 0) {
  std::vector<std::vector<double>> r;
  for (std::size_t i = 0; i < H; ++i)
    for (std::size_t j = 0; j < W; ++j) r.push_back({image, double(i), double(j)});
  return r;
}

/// <R(m) q, R(n) k> for one pair of head vectors.
template <class T>
T rope_dot(const rope_layout<T>& L, const T* q, const double* m, const T* k, const double* n) {
  std::vector<T> qr(q, q + L.head_dim), kr(k, k + L.head_dim);
  rope_rotate(L, m, qr.data());
  rope_rotate(L, n, kr.data());
  return dot(qr.data(), kr.data(), L.head_dim);
}

/// Self-attention with RoPE on queries and keys (values unrotated), as in
/// Llama and FLUX.1.
template <class T>
matrix<T> rope_self_attention(const rope_layout<T>& L, const matrix<T>& X,
                              const std::vector<std::vector<double>>& positions,
                              const attention_options<T>& o = {}) {
  matrix<T> R = rope_apply(L, X, positions);
  return attention(R, R, X, o);
}

}  // namespace pv
