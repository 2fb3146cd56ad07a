// The RoPE configurations checked, the reference layout of a configuration,
// and the angle-rounding model that gives the tolerance of every component.
//
// Model. A correct implementation in a type with unit roundoff u computes the
// speed w = theta^(-2k/dim) with relative error at most eps_w = (4 + ln theta) u
// (the exponent -2k/dim is rounded, an error that pow amplifies by ln theta;
// pow, a reciprocal or exp/log add a few more roundings), then the angle
// m w with one more rounding, then cos, sin (one ulp each) and the two
// products and one sum of the rotation. So each rotated component is within
//   t = (|x_a| + |x_b|) (|m| w (eps_w + u) + 5u)
// of the exact rotation: the angle error grows linearly with the position.
#pragma once

#include "posverify/impl.h"
#include "posverify/rope.h"

#include <string>
#include <vector>

namespace pv::check {

struct rope_cfg {
  std::string name;
  pv_rope_config c;
  std::string spec;  ///< as given to --rope-config (empty for the defaults)
};

/// Parses PAIRING:THETA:DIMS, e.g. "halves:500000:128" or
/// "adjacent:10000:16,56,56"; throws std::invalid_argument naming the field.
rope_cfg parse_rope_config(const std::string& spec);

/// The configurations checked: text RoPE in both pair conventions, a
/// Llama-3-like long-context ladder, and FLUX.1's three axes.
inline std::vector<rope_cfg> rope_configs() {
  std::vector<rope_cfg> v;
  auto text = [](int d, double theta, pv_pairing p) {
    pv_rope_config c{};
    c.head_dim = d;
    c.n_axes = 1;
    c.axes_dim[0] = d;
    c.theta = theta;
    c.pairing = p;
    return c;
  };
  v.push_back({"text-adjacent-64", text(64, 10000, PV_PAIRS_ADJACENT), ""});
  v.push_back({"text-halves-64", text(64, 10000, PV_PAIRS_HALVES), ""});
  v.push_back({"text-halves-128-theta500000", text(128, 500000, PV_PAIRS_HALVES), ""});
  pv_rope_config f{};
  f.head_dim = 128;
  f.n_axes = 3;
  f.axes_dim[0] = 16;
  f.axes_dim[1] = 56;
  f.axes_dim[2] = 56;
  f.theta = 10000;
  f.pairing = PV_PAIRS_ADJACENT;
  v.push_back({"flux-16-56-56", f, ""});
  return v;
}

inline rope_layout<hp> reference_layout(const pv_rope_config& c) {
  std::vector<std::size_t> dims;
  for (int a = 0; a < c.n_axes; ++a) dims.push_back(static_cast<std::size_t>(c.axes_dim[a]));
  return rope_axes<hp>(dims, convert<hp>(c.theta),
                       c.pairing == PV_PAIRS_ADJACENT ? pairing::adjacent : pairing::halves);
}

/// eps_w of the model for type T.
template <class T>
hp speed_error(const pv_rope_config& c) {
  return (4 + abs(log(convert<hp>(c.theta)))) * convert<hp>(unit_roundoff<T>());
}

/// The per-component tolerance t of one rotated row (see the file comment).
/// Not rope_rotation_error: it takes stored speeds as exact; a user's kernel rounds w too (eps_w).
template <class T>
std::vector<hp> component_tolerance(const rope_layout<hp>& L, const pv_rope_config& c,
                                    const double* pos, const T* x) {
  const hp u = convert<hp>(unit_roundoff<T>()), ew = speed_error<T>(c);
  std::vector<hp> t(L.head_dim, hp(0));
  for (const auto& p : L.pairs) {
    hp r = abs(convert<hp>(x[p.a])) + abs(convert<hp>(x[p.b]));
    hp dtheta = abs(convert<hp>(pos[p.axis])) * p.speed * (ew + u);
    t[p.a] = t[p.b] = r * (dtheta + 5 * u);
  }
  return t;
}

/// The relative angle tolerance of one pair at position m: m w (eps_w + u) + 5u.
template <class T>
hp angle_tolerance(const pv_rope_config& c, const hp& m, const hp& w) {
  const hp u = convert<hp>(unit_roundoff<T>());
  return abs(m) * w * (speed_error<T>(c) + u) + 5 * u;
}

inline std::string model_rule() {
  return "each component within t = (|x_a| + |x_b|) (|m| w (eps_w + u) + 5u) of the exact "
         "rotation, eps_w = (4 + ln theta) u: the speed theta^(-2k/dim) carries the rounding "
         "of its exponent amplified by ln theta plus a few roundings of pow/exp/reciprocal, the "
         "angle m w one more (so the error grows with the position m), cos, sin and the "
         "rotation 5u";
}

}  // namespace pv::check
