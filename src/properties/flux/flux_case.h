// Helpers of the FLUX (multi-axis RoPE) properties: per-axis group dot
// products and their a-priori bounds, positions on H x W grids of any shape.
#pragma once

#include "properties/property.h"

#include <array>
#include <string>
#include <vector>

namespace pv::flux_check {

/// The components of the pairs driven by `axis`, in the order the group dot
/// sums them (a then b, pair by pair).
template <class T>
std::vector<std::size_t> group_components(const rope_layout<T>& L, std::size_t axis) {
  std::vector<std::size_t> idx;
  for (const auto& pr : L.pairs)
    if (pr.axis == axis) idx.push_back(pr.a), idx.push_back(pr.b);
  return idx;
}

/// A computed group dot sum_{j in group} x_j y_j (left to right) with its
/// a-priori bound against the exact group dot of the exact vectors, given
/// entrywise input errors ex, ey (empty: exact inputs).
template <class T>
std::pair<T, hp> group_dot(const std::vector<std::size_t>& idx, const T* x,
                           const std::vector<hp>& ex, const T* y, const std::vector<hp>& ey) {
  std::vector<T> gx, gy;
  std::vector<hp> gex, gey;
  for (auto j : idx) {
    gx.push_back(x[j]);
    gy.push_back(y[j]);
    if (!ex.empty()) gex.push_back(ex[j]);
    if (!ey.empty()) gey.push_back(ey[j]);
  }
  return {dot(gx.data(), gy.data(), gx.size()), dot_error_bound(gx.data(), gex, gy.data(), gey, gx.size())};
}

/// A rotated copy of x at position p (3 coordinates) and its error bound.
template <class T>
std::pair<std::vector<T>, std::vector<hp>> rotated(const rope_layout<T>& L, const T* x,
                                                   const std::array<double, 3>& p) {
  std::vector<T> r(x, x + L.head_dim);
  rope_rotate(L, p.data(), r.data());
  return {r, rope_rotation_error(L, p.data(), x)};
}

/// The start of every FLUX property's case: a layout (FLUX.1's [16, 56, 56] or a
/// reduced 3-axis one), an H x W grid of any shape (1..16 per side, tagged
/// square or not) and two token rows q, k of the layout's head dimension.
struct flux_case {
  gen::flux_spec f;
  gen::grid g;
  matrix<double> QK;
};
inline flux_case draw_flux_case() {
  flux_case c{*gen::flux_config(), *gen::flux_grid(16), {}};
  RC_TAG(c.g.h == c.g.w ? "square grid" : "non-square grid");
  RC_CLASSIFY(c.g.h >= 6 && c.g.w >= 6, "both sides >= 6");
  const std::size_t d = c.f.axes_dim[0] + c.f.axes_dim[1] + c.f.axes_dim[2];
  c.QK = *gen::tokens({2, 2, d, d, true, false});
  return c;
}

inline std::string show(const std::array<double, 3>& p) {
  return "(" + to_decimal(p[0]) + ", " + to_decimal(p[1]) + ", " + to_decimal(p[2]) + ")";
}

}  // namespace pv::flux_check
