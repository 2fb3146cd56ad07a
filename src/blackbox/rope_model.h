// The RoPE configurations checked, the reference layout of a configuration,
// and the angle-rounding model that gives the tolerance of every component.
//
// Model of `reference` (what a correct kernel may return for the requested
// configuration). A kernel in a type with unit roundoff u computes the speed
// w_k = theta^(-2k/dim) of pair k in one of the ways real libraries do, each a
// term of eps_w(k), the speed's relative error:
//   direct   pow(theta, -2k/dim), 1/pow(theta, 2k/dim), exp(-2k/dim ln theta),
//            an inverse-frequency table in T or in float64 rounded to T:
//            eps_direct = (4 + ln theta) u (the exponent's rounding amplified
//            by ln theta, plus a few roundings of pow, the reciprocal, exp/log);
//   ladder   w_0 = 1, w_k = w_{k-1} r with r = pow(theta, -2/dim) rounded once,
//            every product rounded in T: w_k = r^k (1 + eps_r)^k (1 + u)^k, so
//            eps_ladder(k) = (1 + eps_r)^k (1 + u)^k - 1, eps_r = (4 + (2/dim) ln theta) u
//            (it grows with the pair index k, about k (5 + (2/dim) ln theta) u);
//   eps_w(k) = max(eps_direct, eps_ladder(k)).
// The angle m w is one more rounding in T (a float32 product pos * inv_freq,
// or a float64 angle rounded once: both within u |m w|). Then, per unit of
// |x_a| + |x_b| (rotation_rounding below, e_rot):
//   cos and sin within e_sc = 4u each (error_bounds.h's trig_abs_error: glibc's
//   1 ulp, allowed 2, of a value <= 1), so x_a c~ - x_b s~ is within e_sc of
//   x_a c - x_b s; the two products and the sum add gamma_2 (1 + e_sc);
//   a declared storage format coarser than T rounds the input and the result
//   once each: ((1 + u)^2 - 1)(1 + e_sc)(1 + gamma_2).
// e_rot = e_sc + gamma_2 (1 + e_sc) (+ the storage term) = 6u + O(u^2).
// cos/sin tables cached once are the same roundings done ahead. So each
// rotated component is within
//   t = (|x_a| + |x_b|) (|m| w (eps_w(k) + u_angle) + e_rot)
// of the exact rotation: the angle error grows linearly with the position.
//
// Angle ladder (ggml's rope): the angle itself is the ladder, theta_0 = m,
// theta_k = theta_{k-1} r, every product rounded in T:
//   theta_k = m r~^k prod_{j=1..k} (1 + d_j),  |d_j| <= u,
// so against m w_k it is within (1 + eps_r)^k (1 + u)^k - 1 = eps_ladder(k)
// <= eps_w(k): the term above covers it. What differs from the speed ladder is
// WHICH roundings depend on the position: there, one (the product m w); here,
// all k (the d_j change with m). That matters to the rotation laws below.
//
// Underflow. A declared storage format with subnormals (float16: smallest
// subnormal eta = 2^-24) rounds a value within u |x| + eta/2, not u |x|: each
// input component may move by eta/2 (carried by the rotation: |c| + |s| <=
// sqrt 2 (1 + e_sc), then gamma_2) and the result by eta/2 more, so each
// component gets the absolute floor
//   f = (eta/2) (sqrt 2 (1 + e_sc)(1 + gamma_2)(1 + u) + 1)
// (rotation_floor; 0 unless stored). Without it an input below float16's
// normal range breaks even the identity at position 0.
//
// Which u. The speed and the angle are rounded in the kernel's arithmetic type
// T (u_angle = T's u); cos, sin, the rotation and storage at the law's u
// (T's, or a coarser declared accuracy class's). A kernel declared bfloat16 or
// float16 (16-bit storage: cos/sin tables cast to the activations' dtype)
// still turns by float32 angles: an angle rounded to 16 bits is the
// long-context bug (positions cast to bfloat16) these laws exist to catch.
// Only float16-accumulation (every operation in float16) takes u_angle = the
// class's u.
//
// Model of the rotation laws (composition, shift invariance, translation,
// FLUX per-axis laws). They hold for every rotation, whatever its speeds, so
// their tolerance uses the speeds the kernel actually turns by (measured:
// kernel_speeds below), and only the roundings that differ between the calls
// being compared, from the same terms as above. The angle of pair k at m is
// m s (1 + e_m) for one speed s (whatever the kernel's systematic errors made
// of it), e_m the product of the roundings that depend on m:
//   n(k) = max(1, k) + n_s   roundings, |e_m| <= eps_m(k) = (1 + u_angle)^n(k) - 1,
// max(1, k): one product m w (direct or speed ladder) or the k products of an
// angle ladder; n_s those a scaling applies to the angle itself (linear: the
// product by 1/s, or m/s before m w: 1; llama3: a per-pair frequency factor: 1;
// YaRN: the factor and its blend, a product and a sum: 3; NTK changes the base
// only: 0; per-pair frequency factors one more, the division by the factor,
// which ggml applies to the angle). The probe measures w' at position 1, where the angle carries the
// same kind of roundings: w' = s (1 + e_1), so s <= w' / (1 - eps_m), and the
// angle is within |m| s eps_m <= |m| w' eps_m / (1 - eps_m) of an exact
// rotation by s. With cos, sin and the rotation (e_rot), YaRN's attention factor
// a (and its 4u, as in the scaled model) and the underflow floor f:
//   t' = a (|x_c| + |x_c'|) (eps_m(k)/(1 - eps_m(k)) sum_a |m_a| w'_{a,c} + e_rot (+ 4u)) + f,
// c' the partner of c, k the ladder index of c's pair in the requested layout.
#pragma once

#include "numerics/error_bounds.h"
#include "posverify/impl.h"
#include "numerics/rope.h"
#include "numerics/rope_scaling.h"

#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace pv::blackbox {

struct rope_cfg {
  std::string name;
  pv_rope_config c{};
  std::string spec;  ///< as given to --rope-config (empty for the defaults)
};

/// Parses PAIRING:THETA:DIMS, e.g. "halves:500000:128" or
/// "adjacent:10000:16,56,56"; throws std::invalid_argument naming the field.
rope_cfg parse_rope_config(const std::string& spec);

/// Named models and their --rope-config spelling (sources: docs/rope-configs.md).
std::vector<std::pair<std::string, std::string>> rope_presets();
/// The configuration of a named model (its name is the preset's); throws
/// std::invalid_argument naming the value and the known names.
rope_cfg parse_rope_preset(const std::string& name);

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

/// The scaling of a (version 3) configuration in rope_scaling.h's terms.
inline rope_scaling scaling_of(const pv_rope_config& c) {
  rope_scaling s;
  s.kind = static_cast<rope_scaling_kind>(c.scaling.kind);
  s.factor = c.scaling.factor;
  s.low = c.scaling.low;
  s.high = c.scaling.high;
  s.original_length = c.scaling.original_length;
  s.length = c.scaling.length;
  s.attention_factor = c.scaling.attention_factor;
  return s;
}

/// R, the components that rotate (the rest pass through: partial rotary).
inline std::size_t rotary_dim(const pv_rope_config& c) {
  std::size_t R = 0;
  for (int a = 0; a < c.n_axes; ++a) R += std::size_t(c.axes_dim[a]);
  return R;
}

/// Whether component i rotates: rotary_offset <= i < rotary_offset + R.
inline bool rotated_component(const pv_rope_config& c, std::size_t i) {
  return i >= std::size_t(c.rotary_offset) && i < std::size_t(c.rotary_offset) + rotary_dim(c);
}

/// The configurations of ABI versions 3 and 7 the mutation suite adds to rope_configs():
/// one per scaling, partial rotary and M-RoPE, and one rotating the last 16 of 48
/// components with per-pair frequency factors (docs/rope-configs.md).
inline std::vector<rope_cfg> scaled_rope_configs() {
  std::vector<rope_cfg> v;
  for (const char* spec : {"halves:10000:64:linear(4)", "adjacent:10000:64:ntk(8)",
                           "halves:10000:64:dynamic(2,4096,16384)", "halves:10000:128:yarn(16,32,1,4096)",
                           "adjacent:10000:48:last(16)+freq_factors(1,1,2,4,8,8,8,8)"})
    v.push_back(parse_rope_config(spec));
  for (const char* name : {"llama-3.1-8b", "phi-2", "qwen2-vl"}) v.push_back(parse_rope_preset(name));
  return v;
}

/// The mutation suite's default: rope_configs() and scaled_rope_configs().
inline std::vector<rope_cfg> mutation_rope_configs() {
  auto v = rope_configs();
  for (auto& c : scaled_rope_configs()) v.push_back(c);
  return v;
}

/// reference_layout's computation (the speeds in MPFR: a power per pair).
inline rope_layout<hp> reference_layout_uncached(const pv_rope_config& c) {
  if (pv_rope_config_version(&c) >= 3) {  // partial rotary, M-RoPE, scaled speeds, offset, factors: one ladder
    std::vector<std::size_t> sections;
    for (int a = 0; a < c.n_axes; ++a) sections.push_back(std::size_t(c.axes_dim[a]));
    std::vector<hp> factors;
    for (int k = 0; k < c.n_freq_factors && k < PV_MAX_FREQ_FACTORS; ++k) factors.push_back(convert<hp>(c.freq_factors[k]));
    return rope_scaled_layout<hp>(std::size_t(c.head_dim), sections, convert<hp>(c.theta),
                                  c.pairing == PV_PAIRS_ADJACENT ? pairing::adjacent : pairing::halves,
                                  scaling_of(c), std::size_t(c.rotary_offset), factors);
  }
  std::vector<std::size_t> dims;
  for (int a = 0; a < c.n_axes; ++a) dims.push_back(static_cast<std::size_t>(c.axes_dim[a]));
  return rope_axes<hp>(dims, convert<hp>(c.theta),
                       c.pairing == PV_PAIRS_ADJACENT ? pairing::adjacent : pairing::halves);
}

/// The reference layout of configuration c (its pairs and their speeds at the
/// reference precision). Remembered per thread, by the configuration's bytes
/// and the precision: every law of every case stream asks for it, and the
/// panel and the mutation suite ask again for each seed and each library
/// (the speeds' powers were about 5 % of a RoPE panel member's time). A copy
/// of the remembered one is the same bit for bit: a pure function of c and
/// the precision. At most 256 configurations are remembered; others are
/// computed each time.
inline rope_layout<hp> reference_layout(const pv_rope_config& c) {
  using key = std::pair<std::string, unsigned>;
  thread_local std::map<key, rope_layout<hp>> memo;
  key k{std::string(reinterpret_cast<const char*>(&c), sizeof c), ref::precision_bits()};
  if (const auto it = memo.find(k); it != memo.end()) return it->second;
  rope_layout<hp> L = reference_layout_uncached(c);
  if (memo.size() < 256) memo.emplace(std::move(k), L);
  return L;
}

/// eps_direct = (4 + ln theta) u: a speed computed directly (see the file comment).
inline hp speed_error_direct(double theta, const hp& u) {
  return (4 + abs(log(convert<hp>(theta)))) * u;
}

/// speed_error's computation. speed_error remembers it per thread: a pure
/// function of its arguments and the reference precision, asked for once per
/// pair of every row of every case (39 % of the time of a FLUX.1 check before).
inline hp speed_error_uncached(double theta, std::size_t k, std::size_t dim, const hp& u) {
  const hp eps_r = (4 + 2 * abs(log(convert<hp>(theta))) / hp(double(dim))) * u;
  const hp ladder = pow((1 + eps_r) * (1 + u), hp(double(k))) - 1;
  const hp direct = speed_error_direct(theta, u);
  return ladder < direct ? direct : ladder;
}

/// A tolerance term remembered per thread (asked for once per component of
/// every row): the value of `compute` under `at`, recomputed when it was
/// remembered for another u (the key holds u rounded to double), at most
/// 65536 entries per memo.
template <class Key, class F>
hp remembered(std::map<Key, std::pair<hp, hp>>& memo, const Key& at, const hp& u, F compute) {
  const auto it = memo.find(at);
  if (it != memo.end() && it->second.first == u) return it->second.second;
  const hp e = compute();
  if (memo.size() < 65536) memo.insert_or_assign(at, std::pair<hp, hp>(u, e));
  return e;
}

/// eps_w(k) = max(eps_direct, eps_ladder(k)) for pair k of a ladder theta^(-2k/dim)
/// (RoPE: dim an axis's components; the sinusoid: theta its base, dim = d).
/// u: the unit roundoff of the dtype or of a declared accuracy class (law_u).
inline hp speed_error(double theta, std::size_t k, std::size_t dim, const hp& u) {
  using key = std::tuple<double, std::size_t, std::size_t, unsigned, double>;
  thread_local std::map<key, std::pair<hp, hp>> memo;  // key -> (u, eps_w)
  if (!std::isfinite(theta) || !isfinite(u)) return speed_error_uncached(theta, k, dim, u);
  return remembered(memo, key{theta, k, dim, ref::precision_bits(), convert<double>(u)}, u,
                    [&] { return speed_error_uncached(theta, k, dim, u); });
}

/// The unit roundoffs a RoPE or sinusoid tolerance counts in (see "Which u" in
/// the file comment): `angle` for the speed and the angle m w, `op` for cos,
/// sin, the rotation and storage; `stored`: a declared format coarser than T
/// holds the input and the result.
struct rope_units {
  hp angle, op;
  bool stored = false;
  hp eta = 0;  ///< the smallest subnormal of the storage format (when stored)
};

/// The same unit roundoff everywhere (a kernel working in T, nothing declared).
inline rope_units same_units(const hp& u) { return {u, u, false}; }

/// e_rot: the error of one rotated component per unit of |x_a| + |x_b|,
/// beyond the angle's (derived in the file comment): e_sc + gamma_2 (1 + e_sc),
/// plus ((1 + u)^2 - 1)(1 + e_sc)(1 + gamma_2) when stored in a coarser format.
inline hp rotation_rounding(const rope_units& r) {
  const hp u = r.op, esc = trig_abs_error_at(u), g2 = 2 * u / (1 - 2 * u);
  hp e = esc + g2 * (1 + esc);
  if (r.stored) e += ((1 + u) * (1 + u) - 1) * (1 + esc) * (1 + g2);
  return e;
}

/// f: the absolute floor of one rotated component when a storage format with
/// subnormals holds the input and the result (derived in the file comment).
inline hp rotation_floor(const rope_units& r) {
  if (!r.stored) return hp(0);
  const hp u = r.op, esc = trig_abs_error_at(u), g2 = 2 * u / (1 - 2 * u);
  return r.eta / 2 * (sqrt(hp(2)) * (1 + esc) * (1 + g2) * (1 + u) + 1);
}

inline std::string rotation_rounding_rule() {
  return "e_rot = e_sc + gamma_2 (1 + e_sc) with e_sc = 4u (cos and sin within 2 ulps), plus "
         "((1 + u)^2 - 1)(1 + e_sc)(1 + gamma_2) when a declared storage format coarser than T "
         "holds the input and the result, and then an absolute floor f = (eta/2) (sqrt 2 (1 + e_sc)"
         "(1 + gamma_2)(1 + u) + 1) per component for its subnormals (eta its smallest); u the law's "
         "unit roundoff (T's or the declared class's)";
}

/// n(k): the roundings of the angle of pair k (its index in its ladder) that
/// depend on the position (file comment, model of the rotation laws).
inline std::size_t angle_roundings(const pv_rope_config& c, std::size_t k) {
  std::size_t n_s = 0;
  switch (c.scaling.kind) {
    case PV_SCALE_LINEAR:
    case PV_SCALE_LLAMA3: n_s = 1; break;
    case PV_SCALE_YARN: n_s = 3; break;
    default: break;
  }
  if (c.n_freq_factors) ++n_s;  // the division by the pair's factor (ggml divides the angle)
  return (k < 1 ? 1 : k) + n_s;
}

/// eps_m / (1 - eps_m), eps_m = (1 + u)^n - 1: the position-dependent angle
/// error per unit of |m| w' (file comment). Remembered, as speed_error is.
inline hp angle_position_error(std::size_t n, const hp& u) {
  using key = std::tuple<std::size_t, unsigned, double>;
  thread_local std::map<key, std::pair<hp, hp>> memo;  // key -> (u, the error)
  const auto compute = [&] {
    const hp e = pow(1 + u, hp(double(n))) - 1;
    return hp(e / (1 - e));
  };
  if (!isfinite(u)) return compute();
  return remembered(memo, key{n, ref::precision_bits(), convert<double>(u)}, u, compute);
}

/// The extra relative speed error of a scaling's own arithmetic (docs/rope-configs.md,
/// "Error model"): linear 2u (the division by s, of the speed or of the position);
/// NTK and dynamic NTK (8 + 3 e s max(1, L/L0)) u, e = R/(R-2) (theta' = theta b^e from a
/// base b of three roundings, carried into w_k = theta'^(-2k/R) at most once); YaRN
/// (6 + 3s) u (w/s, the ramp's division and the blend; an error of 3u in the ramp moves
/// the blend by up to 3u |w - w/s| <= 3 s u of the blended speed); llama3
/// (6 + 5 s high/(high - low)) u (the wavelength 2 pi/w and L0/lambda carry ~5u into the
/// smoothing factor, divided by high - low and multiplied by up to s in the blend).
inline hp scaling_speed_error(const pv_rope_config& c, const hp& u) {
  const auto& s = c.scaling;
  const hp f = convert<hp>(s.factor), R = hp(double(rotary_dim(c)));
  switch (s.kind) {
    case PV_SCALE_LINEAR: return 2 * u;
    case PV_SCALE_NTK:
    case PV_SCALE_DYNAMIC_NTK: {
      const hp ratio = s.original_length > 0 && s.length > s.original_length
                           ? hp(convert<hp>(s.length) / convert<hp>(s.original_length)) : hp(1);
      return (8 + 3 * (R / (R - 2)) * f * ratio) * u;
    }
    case PV_SCALE_YARN: return (6 + 3 * f) * u;
    case PV_SCALE_LLAMA3: return (6 + 5 * f * convert<hp>(s.high) / convert<hp>(s.high - s.low)) * u;
    default: return hp(0);
  }
}

/// The tolerance t of a version 3 configuration (one ladder over R components, pair k in
/// ladder order): t = a (|x_a| + |x_b|) (|m| w_k (eps_w(k) + eps_s + u_angle) + e_rot (+ 4u))
/// with a the attention factor (YaRN; 1 otherwise; its own rounding and the product by it
/// add 4u to e_rot, the rounding of cos, sin and the rotation), eps_w(k) at the effective theta', eps_s the
/// scaling's (scaling_speed_error); pass-through components: 0 (they must come back
/// bit-unchanged), or under a storage format the input's roundings into it (at most two:
/// a 16-bit wire and a coarser declared class): ((1 + u)^2 - 1) |x_c| + eta.
template <class T>
std::vector<hp> scaled_component_tolerance(const rope_layout<hp>& L, const pv_rope_config& c,
                                           const double* pos, const T* x, const rope_units& u) {
  std::vector<hp> t(L.head_dim, hp(0));
  const std::size_t R = rotary_dim(c), off = std::size_t(c.rotary_offset);
  if (u.stored)
    for (std::size_t i = 0; i < L.head_dim; ++i)
      if (i < off || i >= off + R) t[i] = ((1 + u.op) * (1 + u.op) - 1) * abs(convert<hp>(x[i])) + u.eta;
  const hp theta_eff = effective_theta(scaling_of(c), convert<hp>(c.theta), R);
  // a frequency factor: one more division (and the factor's own rounding, in a kernel's float32 table)
  const hp eps_s = scaling_speed_error(c, u.angle) + (c.n_freq_factors ? hp(2 * u.angle) : hp(0)), a = L.scale;
  const hp rounding = rotation_rounding(u) + (a == 1 ? hp(0) : hp(4 * u.op)), floor = rotation_floor(u);
  for (std::size_t k = 0; k < L.pairs.size(); ++k) {
    const auto& p = L.pairs[k];
    hp r = abs(convert<hp>(x[p.a])) + abs(convert<hp>(x[p.b]));
    hp dtheta = abs(convert<hp>(pos[p.axis])) * p.speed *
                (speed_error(convert<double>(theta_eff), k, R, u.angle) + eps_s + u.angle);
    t[p.a] = t[p.b] = a * r * (dtheta + rounding) + floor;
  }
  return t;
}

inline std::string scaled_model_rule() {
  return "each rotated component within t = a (|x_a| + |x_b|) (|m| w_k (eps_w(k) + eps_s + u_angle) + "
         "e_rot + 4u) of the exact rotation by the configuration's scaled speeds w_k (a: YaRN's attention "
         "factor, else 1 and no 4u; eps_w(k) as for plain RoPE at the effective theta'; "
         "eps_s the scaling's own arithmetic: linear 2u, NTK (8 + 3 e s max(1, L/L0)) u, YaRN "
         "(6 + 3s) u, llama3 (6 + 5 s high/(high - low)) u); pass-through components exactly "
         "unchanged, or, when a storage format holds them, within its roundings of the input "
         "((1 + u)^2 - 1) |x_c| + eta (docs/rope-configs.md); " + rotation_rounding_rule();
}

/// The per-component tolerance t of one rotated row (see the file comment).
/// Not rope_rotation_error: it takes stored speeds as exact; a user's kernel rounds w too (eps_w).
template <class T>
std::vector<hp> component_tolerance(const rope_layout<hp>& L, const pv_rope_config& c,
                                    const double* pos, const T* x, const rope_units& u) {
  if (pv_rope_config_version(&c) >= 3) return scaled_component_tolerance<T>(L, c, pos, x, u);
  std::vector<hp> t(L.head_dim, hp(0));
  const hp e_rot = rotation_rounding(u), floor = rotation_floor(u);
  std::vector<std::size_t> k_of_axis(L.n_axes, 0);  // rope_axes lists each axis's pairs in ladder order
  for (const auto& p : L.pairs) {
    const std::size_t k = k_of_axis[p.axis]++, dim = std::size_t(c.axes_dim[p.axis]);
    hp r = abs(convert<hp>(x[p.a])) + abs(convert<hp>(x[p.b]));
    hp dtheta = abs(convert<hp>(pos[p.axis])) * p.speed * (speed_error(c.theta, k, dim, u.angle) + u.angle);
    t[p.a] = t[p.b] = r * (dtheta + e_rot) + floor;
  }
  return t;
}

/// The relative angle tolerance of pair k (of an axis of `dim` components) at
/// position m: m w (eps_w(k) + u_angle) + e_rot.
inline hp angle_tolerance(const pv_rope_config& c, std::size_t k, std::size_t dim, const hp& m, const hp& w,
                          const rope_units& u) {
  return abs(m) * w * (speed_error(c.theta, k, dim, u.angle) + u.angle) + rotation_rounding(u);
}

/// The speeds a kernel actually turns by: w[a][c] is the angle (in [0, pi])
/// through which component c turns at position e_a (1 on axis a, 0 elsewhere),
/// partner[c] the component it turns into (itself when it does not turn).
/// From the requested configuration: roundings[c] = n(k) of c's pair (1 for a
/// component that does not turn), scale = its attention factor a.
struct kernel_speeds {
  std::vector<std::vector<double>> w;
  std::vector<std::size_t> partner;
  std::vector<std::size_t> roundings;
  hp scale = 1;
  bool measured = false;  ///< false: the probe failed; the requested speeds stand in
};

/// roundings[c] and scale of kernel_speeds for a configuration (ladder index k
/// per axis for the configurations of versions 1 and 2, over the R rotated
/// components for version 3, as component_tolerance counts it).
inline void ladder_roundings(const rope_layout<hp>& L, const pv_rope_config& c, kernel_speeds& ks) {
  ks.roundings.assign(std::size_t(c.head_dim), 1);
  ks.scale = L.scale;
  const bool v3 = pv_rope_config_version(&c) >= 3;
  std::vector<std::size_t> k_of_axis(L.n_axes, 0);
  for (std::size_t i = 0; i < L.pairs.size(); ++i) {
    const auto& p = L.pairs[i];
    const std::size_t k = v3 ? i : k_of_axis[p.axis]++;
    ks.roundings[p.a] = ks.roundings[p.b] = angle_roundings(c, k);
  }
}

/// The rotation-law tolerance t' of one row (see the file comment).
template <class T>
std::vector<hp> rotation_tolerance(const kernel_speeds& ks, const double* pos, const T* x, const rope_units& u) {
  const std::size_t d = ks.partner.size(), axes = ks.w.size();
  std::vector<hp> t(d, hp(0));
  const hp e_rot = rotation_rounding(u) + (ks.scale == 1 ? hp(0) : hp(4 * u.op)), floor = rotation_floor(u);
  // the same operations on the same values as component by component, with
  // what does not depend on the component computed once per row: |m_a|, 8u,
  // and eps_m/(1 - eps_m) while n stays the same
  const hp u8 = 8 * u.op;
  std::vector<hp> abs_pos(axes);
  for (std::size_t a = 0; a < axes; ++a) abs_pos[a] = abs(convert<hp>(pos[a]));
  std::size_t n_last = 0;
  // in place, in variables made once per row: the same operations in the same
  // order, each rounded once as the expression's temporaries were, without
  // an MPFR number allocated and freed per operation (about 10 per component)
  hp eps, ang, term, r, r2;
  for (std::size_t c = 0; c < d; ++c) {
    ang = 0;
    // the measured angle carries cos/sin roundings (a few u): add 8u to each speed
    for (std::size_t a = 0; a < axes; ++a) {  // ang += |m_a| (w'_a,c + 8u)
      term = ks.w[a][c];
      term += u8;
      term *= abs_pos[a];
      ang += term;
    }
    r = std::fabs(double(x[c]));  // |x_c| + |x_c'|, each exact in binary64
    r2 = std::fabs(double(x[ks.partner[c]]));
    r += r2;
    const std::size_t n = c < ks.roundings.size() ? ks.roundings[c] : 1;
    if (n != n_last || c == 0) eps = angle_position_error(n, u.angle), n_last = n;
    ang *= eps;  // t = (a r) (eps ang + e_rot) + f
    ang += e_rot;
    r *= ks.scale;
    r *= ang;
    r += floor;
    t[c] = r;
  }
  return t;
}


inline std::string rotation_rule() {
  return "each component within t' = a (|x_c| + |x_c'|) (eps_m/(1 - eps_m) sum_a |m_a| w'_a,c + e_rot) + f "
         "of an exact rotation by the kernel's own speeds w' (measured: the angle each component turns "
         "through at position 1 on each axis; c' the component it turns into): a rotation law "
         "holds for any speeds, so only the roundings that depend on the position can differ between "
         "the calls compared: the angle's, eps_m = (1 + u_angle)^n - 1 with n = max(1, k) + n_s "
         "(one product m w, or the k products of an angle ladder theta_k = theta_{k-1} r from "
         "theta_0 = m, k the pair's ladder index; n_s the scaling's operations on the angle: linear "
         "1, llama3 1, YaRN 3, else 0, plus 1 with frequency factors; u_angle the unit roundoff of T: angles stay in T under a "
         "declared 16-bit storage class; divided by 1 - eps_m for the roundings of the measured w'), "
         "cos and sin (4u each: 2 ulps) and the rotation (gamma_2); a YaRN's attention factor (and 4u "
         "more in e_rot), else 1: " + rotation_rounding_rule();
}

inline std::string model_rule() {
  return "each component within t = (|x_a| + |x_b|) (|m| w (eps_w(k) + u_angle) + e_rot) of the exact "
         "rotation; eps_w(k) = max(eps_direct, eps_ladder(k)) covers every valid way to compute "
         "the speed of pair k: directly (pow, reciprocal, exp/log, an inverse-frequency table in "
         "T or float64), eps_direct = (4 + ln theta) u, or by a ladder of products w_k = w_{k-1} r "
         "in T, eps_ladder(k) = (1 + eps_r)^k (1 + u)^k - 1 with eps_r = (4 + (2/dim) ln theta) u "
         "(an angle ladder theta_k = theta_{k-1} r from theta_0 = m is within eps_ladder(k) in all); "
         "the angle m w one more rounding (a product in T or a float64 angle rounded once; so the "
         "error grows with the position m; u_angle the unit roundoff of T: a declared 16-bit "
         "storage class keeps angles in T), cos, sin (or cached tables of them) and the "
         "rotation: " + rotation_rounding_rule();
}

}  // namespace pv::blackbox
