#include "blackbox/structured_inputs.h"
#include "sandbox/half_formats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pv::blackbox {

const std::vector<structure>& mixed_structures() {
  static const std::vector<structure> s = {structure::random,        structure::repeated_tokens,
                                           structure::identical_keys, structure::padding,
                                           structure::dominant,       structure::exp_overflow,
                                           structure::large_products, structure::tiny};
  return s;
}

const char* to_string(structure s) {
  switch (s) {
    case structure::random: return "random";
    case structure::repeated_tokens: return "repeated tokens (exact ties)";
    case structure::identical_keys: return "all keys identical";
    case structure::padding: return "zero rows (padding)";
    case structure::dominant: return "one dominant score, the rest underflow";
    case structure::exp_overflow: return "scores past exp's overflow";
    case structure::large_products: return "products near the dtype's overflow";
    case structure::tiny: return "tiny and subnormal values";
    case structure::positive_values: return "all-positive values (non-zero mean)";
    case structure::identical_keys_positive: return "all keys identical, all-positive values";
    case structure::flux_rope: return "FLUX.1 RoPE (64x64 image + 512 text tokens at (0,0,0))";
  }
  return "?";
}

template <class T>
value_range range_of(const check_run& cx) {
  value_range r;
  r.max = double(std::numeric_limits<T>::max());
  r.min_normal = double(std::numeric_limits<T>::min());
  r.denorm = double(std::numeric_limits<T>::denorm_min());
  accuracy_class a = cx.accuracy;
  if (cx.wire != PV_F32 && std::is_same_v<T, float>) {
    const accuracy_class w = parse_accuracy(sandbox::dtype_name(cx.wire));
    if (a.precision == 0 || w.u > a.u) a = w;
  }
  if (a.precision > 0 && std::is_same_v<T, float>) {
    r.storage = a;
    r.max = std::min(r.max, a.max);
    r.min_normal = std::max(r.min_normal, std::ldexp(1.0, a.emin));
    r.denorm = std::max(r.denorm, std::ldexp(1.0, a.emin - a.precision + 1));
  }
  r.underflow = r.storage.name == "bfloat16" ? r.min_normal : r.denorm;
  return r;
}
template value_range range_of<float>(const check_run&);
template value_range range_of<double>(const check_run&);

std::vector<double> grid_positions(std::size_t n_text, std::size_t h, std::size_t w, std::size_t na) {
  std::vector<double> p(n_text * na, 0.0);
  p.reserve(na * (n_text + h * w));
  for (std::size_t r = 0; r < h; ++r)
    for (std::size_t c = 0; c < w; ++c)
      for (std::size_t a = 0; a < na; ++a)
        p.push_back(a + 1 == na ? double(c) : a + 2 == na ? double(r) : 0.0);
  return p;
}

std::vector<double> flux_positions(std::size_t n_text, std::size_t h, std::size_t w) {
  return grid_positions(n_text, h, w, 3);
}

std::vector<long> structured_positions(long P) {
  std::vector<long> v{0};
  for (long p2 = 2; p2 - 1 <= P; p2 *= 2)
    for (long q : {p2 - 1, p2, p2 + 1})
      if (q <= P && q > v.back()) v.push_back(q);
  return v;
}

double structured_position(seeded& g, long P) {
  thread_local long listed = -1;  // the list of the last P, kept: every RoPE coordinate draws here
  thread_local std::vector<long> v;
  if (P != listed) v = structured_positions(P), listed = P;
  return double(v[std::size_t(g.range(0, long(v.size()) - 1))]);
}

namespace {

template <class T>
T cast(double x, const value_range& vr) {
  return static_cast<T>(round_to_format(double(static_cast<T>(x)), vr.storage));
}

template <class T>
matrix<T> filled(rng& g, std::size_t rows, std::size_t cols, double lo, double hi, const value_range& vr) {
  matrix<T> m(rows, cols);
  for (auto& x : m.a) x = cast<T>(g.real(lo, hi), vr);
  return m;
}

/// Rotates every row of x by FLUX.1's RoPE (axes 16, 56, 56 of d = 128,
/// theta 10000, adjacent pairs) at the given positions (3 per row); rows
/// past the positions stay as they are. The rotation is part of making the
/// inputs (computed in double, then rounded to the dtype): the attention
/// law judges the kernel on the rounded rows it receives.
template <class T>
void flux_rotate(matrix<double>& x, const std::vector<double>& pos) {
  const std::size_t axes[3] = {16, 56, 56};
  for (std::size_t r = 0; r < x.rows && 3 * r + 2 < pos.size(); ++r) {
    std::size_t off = 0;
    for (std::size_t a = 0; a < 3 && off < x.cols; off += axes[a], ++a)
      for (std::size_t i = 0; 2 * i + 1 < axes[a] && off + 2 * i + 1 < x.cols; ++i) {
        const double w = std::pow(10000.0, -2.0 * double(i) / double(axes[a]));
        const double ang = pos[3 * r + a] * w, cs = std::cos(ang), sn = std::sin(ang);
        double& u = x(r, off + 2 * i);
        double& v = x(r, off + 2 * i + 1);
        const double nu = u * cs - v * sn, nv = u * sn + v * cs;
        u = nu;
        v = nv;
      }
  }
}

}  // namespace

template <class T>
att_inputs<T> structured_attention(rng& g, std::size_t n_q, std::size_t n_k, std::size_t d,
                                   std::size_t d_v, structure s, const value_range& vr) {
  att_inputs<T> in;
  const double sd = std::sqrt(double(d));
  const double c = g.real(0.5, 2.5), vs = 4 * std::pow(10.0, g.real(-1, 1));
  in.q = filled<T>(g, n_q, d, -c, c, vr);
  in.k = filled<T>(g, n_k, d, -c, c, vr);
  in.v = filled<T>(g, n_k, d_v, -vs, vs, vr);
  switch (s) {
    case structure::random: break;
    case structure::repeated_tokens:
      for (std::size_t j = 1; j < n_k; ++j)
        if (g.range(0, 2) == 0) {
          const std::size_t src = g.in(0, j - 1);
          for (std::size_t l = 0; l < d; ++l) in.k(j, l) = in.k(src, l);
        }
      for (std::size_t i = 1; i < n_q; ++i)
        if (g.range(0, 2) == 0) {
          const std::size_t src = g.in(0, i - 1);
          for (std::size_t l = 0; l < d; ++l) in.q(i, l) = in.q(src, l);
        }
      break;
    case structure::identical_keys:
      for (std::size_t j = 1; j < n_k; ++j)
        for (std::size_t l = 0; l < d; ++l) in.k(j, l) = in.k(0, l);
      break;
    case structure::padding: {
      const std::size_t first_pad = n_k >= 2 ? n_k - std::max<std::size_t>(1, n_k / 4) : n_k;
      for (std::size_t j = first_pad; j < n_k; ++j) {
        for (std::size_t l = 0; l < d; ++l) in.k(j, l) = T(0);
        for (std::size_t l = 0; l < d_v; ++l) in.v(j, l) = T(0);
      }
      for (std::size_t i = 0; i < n_q; i += 3)
        for (std::size_t l = 0; l < d; ++l) in.q(i, l) = T(0);
      break;
    }
    case structure::dominant: {
      // the gap: past 1.5 ln(1 / denorm) the others' weights underflow to 0
      // even as subnormals; the random components move a score by at most
      // c^2 sqrt(d)
      const double gap = -1.5 * std::log(vr.denorm) + 2 * c * c * sd;
      const double a = std::sqrt(gap * sd);
      const std::size_t star = g.in(0, n_k - 1);
      for (std::size_t i = 0; i < n_q; ++i) in.q(i, 0) = cast<T>(a, vr);
      for (std::size_t j = 0; j < n_k; ++j) in.k(j, 0) = j == star ? cast<T>(a, vr) : T(0);
      break;
    }
    case structure::exp_overflow: {
      // every score about 1.1 ln(max): exp of a score overflows unless the
      // row's maximum is subtracted first
      const double a = std::sqrt(1.1 * std::log(vr.max) * sd);
      for (std::size_t i = 0; i < n_q; ++i) in.q(i, 0) = cast<T>(a, vr);
      for (std::size_t j = 0; j < n_k; ++j) in.k(j, 0) = cast<T>(a * g.real(0.97, 1.0), vr);
      break;
    }
    case structure::large_products: {
      // every product up to max / (4 d): every partial sum of a score stays
      // below max / 4 in any order (the fast reference's range ends at 2^900)
      const double top = std::min(vr.max, 0x1p880);
      const double m = std::sqrt(top / (4 * double(d)));
      for (auto* x : {&in.q, &in.k})
        for (auto& e : x->a) e = cast<T>(m * g.real(0.5, 1.0) * (g.range(0, 1) ? 1 : -1), vr);
      break;
    }
    case structure::tiny: {
      // products below the smallest normal (subnormal or 0), values and
      // outputs down to the subnormal range
      const double m = std::sqrt(vr.min_normal);
      for (auto* x : {&in.q, &in.k})
        for (auto& e : x->a) e = cast<T>(m * g.real(-1, 1), vr);
      for (auto& e : in.v.a)
        e = g.range(0, 1) ? cast<T>(vr.denorm * double(g.range(-1000, 1000)), vr)
                          : cast<T>(vr.min_normal * g.real(-4, 4), vr);
      break;
    }
    case structure::identical_keys_positive:
      for (std::size_t j = 1; j < n_k; ++j)
        for (std::size_t l = 0; l < d; ++l) in.k(j, l) = in.k(0, l);
      [[fallthrough]];
    case structure::positive_values: {
      // from a quarter to three quarters of the top: the mean is half the
      // largest value, and every partial sum over keys grows with their
      // number; the top keeps n_k of them below max / 4, so that a kernel
      // summing in the storage format (float16-accumulation) stays finite
      const double top = std::min(vs, vr.max / (4 * double(n_k)));
      for (auto& e : in.v.a) e = cast<T>(top * g.real(0.25, 0.75), vr);
      break;
    }
    case structure::flux_rope: {
      const std::size_t side = 64, text = n_k > side * side ? n_k - side * side : 0;
      const auto pos = flux_positions(text, side, side);
      for (auto* x : {&in.q, &in.k}) {
        matrix<double> m(x->rows, x->cols);
        for (std::size_t e = 0; e < m.a.size(); ++e) m.a[e] = g.real(-1, 1);
        flux_rotate<T>(m, pos);
        for (std::size_t e = 0; e < m.a.size(); ++e) x->a[e] = cast<T>(m.a[e], vr);
      }
      break;
    }
  }
  return in;
}

template att_inputs<float> structured_attention<float>(rng&, std::size_t, std::size_t, std::size_t,
                                                       std::size_t, structure, const value_range&);
template att_inputs<double> structured_attention<double>(rng&, std::size_t, std::size_t, std::size_t,
                                                         std::size_t, structure, const value_range&);

}  // namespace pv::blackbox
