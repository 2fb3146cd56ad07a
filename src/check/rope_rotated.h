// Rotated rows against the reference RoPE with per-component tolerances, shared
// by the RoPE laws (rope_laws.cpp) and the position sweep (rope_sweep.cpp).
#pragma once

#include "check/law.h"
#include "check/rope_model.h"
#include "posverify/json.h"

namespace pv::check {

/// Rotated rows, their reference, and their per-component tolerances.
template <class T>
struct rotated {
  matrix<T> y;
  matrix<hp> ref;
  matrix<hp> tol;
};

/// Rotated rows, their reference (the requested configuration), and the
/// per-component tolerances: of `reference` (the requested model), or of the
/// rotation laws when the kernel's own speeds are given.
template <class T>
rotated<T> evaluate(const rope_layout<hp>& L, const rope_cfg& rc, const matrix<T>& x,
                    const std::vector<double>& pos, const std::vector<unsigned char>& out,
                    const rope_units& u, const kernel_speeds* ks = nullptr) {
  rotated<T> r;
  r.y = from_bytes<T>(out, x.rows, x.cols);
  r.ref = matrix<hp>(x.rows, x.cols);
  r.tol = matrix<hp>(x.rows, x.cols);
  const std::size_t na = std::size_t(rc.c.n_axes);
  for (std::size_t i = 0; i < x.rows; ++i) {
    for (std::size_t j = 0; j < x.cols; ++j) r.ref(i, j) = convert<hp>(x(i, j));
    rope_rotate(L, pos.data() + i * na, r.ref.row(i));
    auto t = ks ? rotation_tolerance<T>(*ks, pos.data() + i * na, x.row(i), u)
                : component_tolerance<T>(L, rc.c, pos.data() + i * na, x.row(i), u);
    for (std::size_t j = 0; j < x.cols; ++j) r.tol(i, j) = t[j];
  }
  return r;
}

/// Sweep (rope_sweep.cpp): the error of positions 2^j and 2^j + 1 (j = 0 .. 20)
/// against the model's tolerance there and at --max-position.
template <class T>
json sweep_for(const context& cx, const rope_cfg& rc);

}  // namespace pv::check
