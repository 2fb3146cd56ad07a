// rope_tolerance_fast's constants, computed once per law (rope_tolerance_fast.h):
// in a file of its own so that the many files that include the header (every
// RoPE law's, through rope_rotated.h) do not each compile it.
#include "blackbox/rope_tolerance_fast.h"

namespace pv::blackbox {

rope_tolerance_fast::rope_tolerance_fast(const rope_layout<hp>& L, const pv_rope_config& c, const rope_units& u,
                                         const kernel_speeds* ks)
    : d_(L.head_dim), na_(L.n_axes), rotation_(ks != nullptr) {
  if (ks) {
    const std::size_t d = ks->partner.size();
    d_ = d;
    partner_ = ks->partner;
    w_.assign(ks->w.size() * d, 0.0);
    const double eight_u = convert<double>(hp(8 * u.op));
    for (std::size_t a = 0; a < ks->w.size(); ++a)
      for (std::size_t cc = 0; cc < d; ++cc) w_[a * d + cc] = ks->w[a][cc] + eight_u;
    na_ = ks->w.size();
    position_.resize(d);
    for (std::size_t cc = 0; cc < d; ++cc)
      position_[cc] = convert<double>(angle_position_error(cc < ks->roundings.size() ? ks->roundings[cc] : 1, u.angle));
    rounding_ = convert<double>(hp(rotation_rounding(u) + (ks->scale == 1 ? hp(0) : hp(4 * u.op))));
    floor_ = convert<double>(rotation_floor(u));
    scale_ = convert<double>(ks->scale);
    return;
  }
  floor_ = convert<double>(rotation_floor(u));
  const bool v3 = pv_rope_config_version(&c) >= 3;
  pair_.resize(L.pairs.size());
  if (v3) {
    const std::size_t R = rotary_dim(c), off = std::size_t(c.rotary_offset);
    if (u.stored) {
      pass_ = convert<double>(hp((1 + u.op) * (1 + u.op) - 1));
      eta_ = convert<double>(u.eta);
      for (std::size_t i = 0; i < d_; ++i)
        if (i < off || i >= off + R) passing_.push_back(i);
    }
    const hp theta_eff = effective_theta(scaling_of(c), convert<hp>(c.theta), R);
    const hp eps_s = scaling_speed_error(c, u.angle) + (c.n_freq_factors ? hp(2 * u.angle) : hp(0)), a = L.scale;
    rounding_ = convert<double>(hp(rotation_rounding(u) + (a == 1 ? hp(0) : hp(4 * u.op))));
    scale_ = convert<double>(a);
    for (std::size_t k = 0; k < L.pairs.size(); ++k)
      pair_[k] = convert<double>(
          hp(L.pairs[k].speed * (speed_error(convert<double>(theta_eff), k, R, u.angle) + eps_s + u.angle)));
  } else {
    rounding_ = convert<double>(rotation_rounding(u));
    scale_ = 1;
    std::vector<std::size_t> k_of_axis(L.n_axes, 0);
    for (std::size_t i = 0; i < L.pairs.size(); ++i) {
      const auto& p = L.pairs[i];
      const std::size_t k = k_of_axis[p.axis]++, dim = std::size_t(c.axes_dim[p.axis]);
      pair_[i] = convert<double>(hp(p.speed * (speed_error(c.theta, k, dim, u.angle) + u.angle)));
    }
  }
  for (const auto& p : L.pairs) pairs_.push_back({p.a, p.b, p.axis});  // the speeds are in pair_
}

}  // namespace pv::blackbox
