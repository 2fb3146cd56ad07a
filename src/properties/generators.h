// Domain generators (RapidCheck): token matrices, permutations, positions,
// shifts, speeds, FLUX grids. Numbers are float-representable doubles, so one
// input is exact in float, double and the reference alike. RapidCheck's own
// real generator has no subnormals and no control of magnitude; these mix
// magnitudes and edge cases on purpose. All sizes stay within 100.
#pragma once

#include "numerics/numerics.h"
#include "core/seeded.h"

#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace pv {

/// Lossless printing of generated matrices in counterexamples.
inline void showValue(const matrix<double>& m, std::ostream& os) { os << to_string(m); }

/// Lossless printing of generated convolution kernels.
inline void showValue(const conv3x3<double>& k, std::ostream& os) {
  os << "{c_in " << k.c_in << ", c_out " << k.c_out << ", w [";
  for (std::size_t i = 0; i < k.w.size(); ++i) os << (i ? ", " : "") << to_decimal(k.w[i]);
  os << "], bias [";
  for (std::size_t i = 0; i < k.bias.size(); ++i) os << (i ? ", " : "") << to_decimal(k.bias[i]);
  os << "]}";
}

}  // namespace pv

namespace pv::gen {

/// A uniform integer in [lo, hi) at every RapidCheck size. RapidCheck's
/// inRange widens its range with the size (0 .. 100): at size s it draws only
/// from [lo, lo + (hi - lo) s / 100], so small sizes would see only the low
/// end. Resizing the draw to 100 makes it uniform over the whole range at
/// every size; shrinking still goes towards lo.
template <class T>
rc::Gen<T> uniform(T lo, T hi) {
  return rc::gen::resize(100, rc::gen::inRange<T>(lo, hi));
}

/// A float-representable double in [lo, hi] on a grid of 2^20 steps, with
/// the endpoints and zero (when inside) as edge cases (3 draws in 20).
inline rc::Gen<double> real(double lo, double hi) {
  return rc::gen::exec([lo, hi] {
    int pick = *uniform(0, 20);
    double x;
    if (pick == 0) x = lo;
    else if (pick == 1) x = hi;
    else if (pick == 2 && lo <= 0 && hi >= 0) x = 0;
    else {
      std::int64_t k = *uniform<std::int64_t>(0, (1 << 20) + 1);
      x = lo + (hi - lo) * (static_cast<double>(k) / (1 << 20));
    }
    return static_cast<double>(static_cast<float>(x));
  });
}

/// Entry magnitude classes for token matrices.
enum class magnitude { small, unit, large, mixed };

inline double magnitude_bound(magnitude m) {
  switch (m) {
    case magnitude::small: return 1.0 / 64;
    case magnitude::unit: return 1.0;
    case magnitude::large: return 8.0;
    case magnitude::mixed: return 4.0;
  }
  return 1;
}

/// Makes the rows of X pairwise distinct: while row i equals an earlier row,
/// its first entry becomes nudge(entry, its value before any nudge), and every
/// earlier row is compared again (a nudge can land on a row already passed:
/// the bug RapidCheck found at seed 16343053930698469497, tests/properties/
/// generators_test.cpp). `nudge` must move monotonically in one direction per
/// row, so a row meets each earlier row at most once and this ends.
template <class Nudge>
void make_rows_distinct(matrix<double>& X, Nudge nudge) {
  for (std::size_t i = 1; i < X.rows; ++i) {
    const double first = X(i, 0);
    for (std::size_t j = 0; j < i; ++j) {
      bool same = true;
      for (std::size_t c = 0; c < X.cols && same; ++c) same = X(i, c) == X(j, c);
      if (same) {
        X(i, 0) = nudge(X(i, 0), first);
        j = std::size_t(-1);  // from row 0 again
      }
    }
  }
}

/// An n x d token matrix (n in [n_lo, n_hi], d in [d_lo, d_hi], d even when
/// `even_d`), entries in [-b, b] for a magnitude class drawn from all four,
/// rows pairwise distinct. With `near_ties`, one row may copy another with one
/// entry nudged by one float ulp.
struct token_options {
  std::size_t n_lo = 2, n_hi = 8, d_lo = 2, d_hi = 8;
  bool even_d = false;
  bool near_ties = true;
};

inline rc::Gen<matrix<double>> tokens(token_options o = {}) {
  return rc::gen::exec([o] {
    std::size_t n = *uniform(o.n_lo, o.n_hi + 1);
    std::size_t d = *uniform(o.d_lo, o.d_hi + 1);
    if (o.even_d && d % 2) d += 1;
    auto mag = *rc::gen::element(magnitude::small, magnitude::unit, magnitude::large,
                                 magnitude::mixed);
    double b = magnitude_bound(mag);
    matrix<double> X(n, d);
    for (auto& v : X.a) v = *real(-b, b);
    if (o.near_ties && n >= 2 && *uniform(0, 4) == 0) {
      std::size_t i = *uniform<std::size_t>(0, n), j = (i + 1) % n;
      for (std::size_t c = 0; c < d; ++c) X(j, c) = X(i, c);
      float f = static_cast<float>(X(j, 0));
      X(j, 0) = static_cast<double>(std::nextafter(f, static_cast<float>(2 * b + 1)));
    }
    // distinct rows: nudge duplicates up by one float ulp (rare after the draw above)
    make_rows_distinct(X, [](double x, double) {
      return static_cast<double>(std::nextafter(static_cast<float>(x), 1e9f));
    });
    return X;
  });
}

/// A uniform permutation of n elements (Fisher-Yates driven by generated
/// indices, so it shrinks towards the identity).
inline rc::Gen<permutation> uniform_permutation(std::size_t n) {
  return rc::gen::exec([n] {
    return fisher_yates(n, [](std::size_t i) { return *uniform<std::size_t>(0, i); });
  });
}

/// A permutation of n: uniform, the chapter's [5, 2, 4, 0, 1, 3] when n = 6,
/// or the reversal.
inline rc::Gen<permutation> permutation_of(std::size_t n) {
  return rc::gen::exec([n] {
    int pick = *uniform(0, 8);
    if (pick == 0 && n == 6) return chapter_six_cell_order();
    if (pick == 1) {
      permutation p(n);
      for (std::size_t i = 0; i < n; ++i) p[i] = n - 1 - i;
      return p;
    }
    return *uniform_permutation(n);
  });
}

/// An integer position: small (|p| < 64) or large (up to 2^20), as a double.
inline rc::Gen<double> position(std::int64_t max = 1 << 20) {
  return rc::gen::exec([max] {
    int pick = *uniform(0, 4);
    std::int64_t lim = pick == 0 ? max : std::min<std::int64_t>(64, max);
    return static_cast<double>(*uniform<std::int64_t>(0, lim + 1));
  });
}

/// A shift (may be negative), small or up to 2^20 in size.
inline rc::Gen<double> shift(std::int64_t max = 1 << 20) {
  return rc::gen::exec([max] {
    double p = *position(max);
    return *rc::gen::arbitrary<bool>() ? -p : p;
  });
}

/// A RoPE/sinusoid base: the usual 10000, llama-3's 500000, or 10^[1, 6].
inline rc::Gen<double> base() {
  return rc::gen::exec([] {
    int pick = *uniform(0, 4);
    if (pick == 0) return 10000.0;
    if (pick == 1) return 500000.0;
    return static_cast<double>(static_cast<float>(std::pow(10.0, *real(1.0, 6.0))));
  });
}

/// A list of k speeds in (0, 1] radians per position.
inline rc::Gen<std::vector<double>> speeds(std::size_t k_lo = 1, std::size_t k_hi = 8) {
  return rc::gen::exec([k_lo, k_hi] {
    std::size_t k = *uniform(k_lo, k_hi + 1);
    std::vector<double> w(k);
    for (auto& v : w) v = *real(1.0 / 1024, 1.0);
    return w;
  });
}

/// A FLUX grid shape H x W, each side uniform in 1 .. max_side at every size:
/// non-square in (max_side - 1) / max_side of the draws (15 in 16 at 16).
struct grid {
  std::size_t h, w;
};
inline void showValue(const grid& g, std::ostream& os) { os << g.h << " x " << g.w; }
inline rc::Gen<grid> flux_grid(std::size_t max_side = 16) {
  return rc::gen::exec([max_side] {
    return grid{*uniform<std::size_t>(1, max_side + 1), *uniform<std::size_t>(1, max_side + 1)};
  });
}

/// A FLUX position (image number in [0, 4), row, column) of a cell of grid g.
inline rc::Gen<std::array<double, 3>> flux_cell(const grid& g) {
  return rc::gen::exec([g] {
    return std::array<double, 3>{double(*uniform(0, 4)),
                                 double(*uniform<std::size_t>(0, g.h)),
                                 double(*uniform<std::size_t>(0, g.w))};
  });
}

/// An integer position in [0, max]: small (< 64) three times in four, else
/// anywhere up to max (default 2^20). Integers print losslessly.
inline rc::Gen<std::int64_t> position_int(std::int64_t max = 1 << 20) {
  return rc::gen::exec([max] {
    int pick = *uniform(0, 4);
    std::int64_t lim = pick == 0 ? max : std::min<std::int64_t>(63, max);
    return *uniform<std::int64_t>(0, lim + 1);
  });
}

/// A signed integer shift, |s| <= max: small or large (up to 2^20).
inline rc::Gen<std::int64_t> shift_int(std::int64_t max = 1 << 20) {
  return rc::gen::exec([max] {
    std::int64_t p = *position_int(max);
    return *rc::gen::arbitrary<bool>() ? -p : p;
  });
}

/// Generic tokens: an n x d matrix whose entries have magnitude in [lo, hi]
/// with random signs, or all positive when `positive`, drawn uniformly from a
/// grid of 2^20 float-representable steps at every RapidCheck size, with no
/// edge-case bias (endpoint draws, or the coarse grid of small sizes, would
/// make equal or parallel pairs of entries common). No near
/// ties; rows pairwise distinct.
struct generic_options {
  std::size_t n_lo = 2, n_hi = 8, d_lo = 2, d_hi = 8;
  bool even_d = false;
  double lo = 0.25, hi = 2.0;
  bool positive = false;
};

inline rc::Gen<matrix<double>> generic_tokens(generic_options o = {}) {
  return rc::gen::exec([o] {
    std::size_t n = *uniform(o.n_lo, o.n_hi + 1);
    std::size_t d = *uniform(o.d_lo, o.d_hi + 1);
    if (o.even_d && d % 2) d += 1;
    matrix<double> X(n, d);
    for (auto& v : X.a) {
      // full range at every RapidCheck size (inRange scales with size)
      const std::int64_t k =
          *uniform<std::int64_t>(0, (1 << 20) + 1);
      v = static_cast<double>(static_cast<float>(o.lo + (o.hi - o.lo) * (double(k) / (1 << 20))));
      if (!o.positive && *rc::gen::arbitrary<bool>()) v = -v;
    }
    // distinct rows: nudge a rare duplicate's magnitude by one float ulp towards the far end of
    // [lo, hi] from where it started (at most n - 1 ulps: it stays inside), keeping its sign
    const double mid = (o.lo + o.hi) / 2;
    make_rows_distinct(X, [&o, mid](double x, double first) {
      const float m = std::nextafter(static_cast<float>(std::abs(x)),
                                     static_cast<float>(std::abs(first) < mid ? o.hi : o.lo));
      return x < 0 ? -double(m) : double(m);
    });
    return X;
  });
}

/// A non-identity permutation of n >= 2 (uniform, the chapter's order when
/// n = 6, or the reversal; an identity draw becomes a swap of two entries).
inline rc::Gen<permutation> nonidentity_permutation(std::size_t n) {
  return rc::gen::exec([n] {
    permutation p = *permutation_of(n);
    bool id = true;
    for (std::size_t i = 0; i < n; ++i) id = id && p[i] == i;
    if (id && n >= 2) {
      std::size_t i = *uniform<std::size_t>(0, n - 1);
      std::swap(p[i], p[i + 1]);
    }
    return p;
  });
}

/// A 1-D RoPE configuration: the ladder theta^(-2i/d) or explicit speeds,
/// with either pairing. Speeds and bases are float-representable, so the
/// same configuration is built exactly in float, double and hp (a ladder is
/// computed in each type, as the code under test does).
struct rope_spec {
  pairing pair = pairing::adjacent;
  bool ladder = true;
  std::size_t d = 2;
  double theta = 10000;
  std::vector<double> speeds;  ///< when !ladder (d = 2 |speeds|)
};

inline void showValue(const rope_spec& r, std::ostream& os) {
  os << "{pairing " << to_string(r.pair) << ", d " << r.d;
  if (r.ladder) os << ", ladder theta " << to_decimal(r.theta) << "}";
  else {
    os << ", speeds [";
    for (std::size_t i = 0; i < r.speeds.size(); ++i) os << (i ? ", " : "") << to_decimal(r.speeds[i]);
    os << "]}";
  }
}

template <class T>
rope_layout<T> layout(const rope_spec& r) {
  if (r.ladder) return rope_ladder<T>(r.d, T(r.theta), r.pair);
  std::vector<T> w;
  for (double v : r.speeds) w.push_back(T(v));
  return rope_with_speeds<T>(w, r.pair);
}

/// A 1-D RoPE configuration with head dim in [d_lo, d_hi] (even).
inline rc::Gen<rope_spec> rope_1d(std::size_t d_lo = 2, std::size_t d_hi = 16,
                                  bool ladder_only = false) {
  return rc::gen::exec([d_lo, d_hi, ladder_only] {
    rope_spec r;
    r.pair = *rc::gen::element(pairing::adjacent, pairing::halves);
    r.ladder = ladder_only || *uniform(0, 3) != 0;
    std::size_t k = *uniform(std::max<std::size_t>(1, d_lo / 2), d_hi / 2 + 1);
    r.d = 2 * k;
    if (r.ladder) r.theta = *base();
    else r.speeds = *speeds(k, k);
    return r;
  });
}

/// A multi-axis (FLUX-style) RoPE configuration: FLUX.1's own [16, 56, 56]
/// with theta 10000 and adjacent pairs, or a reduced one (three axes of
/// 2 .. 8 components, any base, either pairing) for cheap attention checks.
struct flux_spec {
  std::vector<std::size_t> axes_dim{16, 56, 56};
  double theta = 10000;
  pairing pair = pairing::adjacent;
};

inline void showValue(const flux_spec& f, std::ostream& os) {
  os << "{axes_dim [" << f.axes_dim[0] << ", " << f.axes_dim[1] << ", " << f.axes_dim[2]
     << "], theta " << to_decimal(f.theta) << ", pairing " << to_string(f.pair) << "}";
}

template <class T>
rope_layout<T> layout(const flux_spec& f) {
  return rope_axes<T>(f.axes_dim, T(f.theta), f.pair);
}

inline rc::Gen<flux_spec> flux_config(bool allow_full = true) {
  return rc::gen::exec([allow_full] {
    flux_spec f;
    if (allow_full && *uniform(0, 3) == 0) return f;
    for (auto& a : f.axes_dim) a = 2 * *uniform<std::size_t>(1, 5);
    f.theta = *base();
    f.pair = *rc::gen::element(pairing::adjacent, pairing::halves);
    return f;
  });
}

/// A 3 x 3 convolution kernel with c_in -> c_out channels, weights in
/// [-1, 1] (or [1/4, 1] when `positive`), bias in [-1, 1] (0 when positive).
inline rc::Gen<conv3x3<double>> kernel(std::size_t c_in, std::size_t c_out, bool positive = false) {
  return rc::gen::exec([c_in, c_out, positive] {
    auto k = conv3x3<double>::zeros(c_in, c_out);
    for (auto& v : k.w) v = positive ? *real(0.25, 1.0) : *real(-1.0, 1.0);
    if (!positive)
      for (auto& v : k.bias) v = *real(-1.0, 1.0);
    return k;
  });
}

/// A kernel that is not symmetric top-to-bottom, by a margin: top and middle
/// rows and bias in [-1/4, 1/4], bottom row w[2][dc] = w[0][dc] + delta with
/// delta in [1/8, 1/4] (sums of two grid values, exact in float).
inline rc::Gen<conv3x3<double>> flip_asymmetric_kernel(std::size_t c_in, std::size_t c_out) {
  return rc::gen::exec([c_in, c_out] {
    auto k = conv3x3<double>::zeros(c_in, c_out);
    for (std::size_t o = 0; o < c_out; ++o) {
      k.bias[o] = *real(-0.25, 0.25);
      for (std::size_t i = 0; i < c_in; ++i)
        for (int dc = 0; dc < 3; ++dc) {
          k.at(o, i, 0, dc) = *real(-0.25, 0.25);
          k.at(o, i, 1, dc) = *real(-0.25, 0.25);
          k.at(o, i, 2, dc) =
              static_cast<double>(static_cast<float>(k.at(o, i, 0, dc) + *real(0.125, 0.25)));
        }
    }
    return k;
  });
}

template <class T>
conv3x3<T> convert_kernel(const conv3x3<double>& k) {
  conv3x3<T> r = conv3x3<T>::zeros(k.c_in, k.c_out);
  for (std::size_t i = 0; i < k.w.size(); ++i) r.w[i] = T(k.w[i]);
  for (std::size_t i = 0; i < k.bias.size(); ++i) r.bias[i] = T(k.bias[i]);
  return r;
}

/// A FLUX grid with at least `min_h` rows and `min_w` columns (any shape).
inline rc::Gen<grid> flux_grid_min(std::size_t min_h, std::size_t min_w, std::size_t max_side = 8) {
  return rc::gen::exec([=] {
    return grid{*uniform<std::size_t>(min_h, max_side + 1),
                *uniform<std::size_t>(min_w, max_side + 1)};
  });
}

}  // namespace pv::gen
