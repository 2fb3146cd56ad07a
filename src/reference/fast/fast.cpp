// The fast reference tier (fast.h); every constant in u^2 is derived in
// docs/fast_reference.md, section by section as marked below.
#include "reference/fast/fast.h"

#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <bit>  // std::bit_cast
#include <cstdint>
#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <exception>
#include <mutex>
#include <thread>

namespace pv::fast {

namespace {

// ---- Constants, computed once from MPFR at 320 bits ----------------------

struct mp_local {  // an mpfr_t at a fixed precision, independent of pv::hp's setting
  mpfr_t x;
  explicit mp_local(mpfr_prec_t bits = 320) { mpfr_init2(x, bits); }
  ~mp_local() { mpfr_clear(x); }
};

// x rounded to nearest into `bits` bits, as a double (bits <= 53).
double round_bits(mpfr_t x, mpfr_prec_t bits) {
  mp_local t(bits);
  mpfr_set(t.x, x, MPFR_RNDN);
  return mpfr_get_d(t.x, MPFR_RNDN);
}

// x = parts[0] + parts[1] + ... + remainder: parts[0] rounded to
// `first_bits` bits (so that k * parts[0] is exact for small integers k), each
// further part the remainder rounded to a double (exact subtractions at 320 bits).
void split(mpfr_t x, mpfr_prec_t first_bits, std::initializer_list<double*> parts) {
  mp_local rest;
  mpfr_set(rest.x, x, MPFR_RNDN);
  bool first = true;
  for (double* p : parts) {
    *p = first ? round_bits(rest.x, first_bits) : mpfr_get_d(rest.x, MPFR_RNDN);
    mpfr_sub_d(rest.x, rest.x, *p, MPFR_RNDN);
    first = false;
  }
}

dd dd_of(mpfr_t x) {
  mp_local r;
  dd z;
  z.hi = mpfr_get_d(x, MPFR_RNDN);
  mpfr_sub_d(r.x, x, z.hi, MPFR_RNDN);  // exact at 320 bits
  z.lo = mpfr_get_d(r.x, MPFR_RNDN);
  return z;
}

constexpr int exp_table_bits = 8;  // 2^(j/256)
constexpr int exp_table_size = 1 << exp_table_bits;
constexpr int exp_degree = 10;
constexpr int exp_dd_degree = 5;  // terms above in binary64
constexpr int trig_terms = 15;  // k = 0 .. 14: degree 29 for sin, 28 for cos

struct constants {
  // exp: L = ln 2 / 256 = L1 + L2 + L3, L1 with 35 bits (k L1 exact for |k| < 2^18)
  double inv_l, l1, l2, l3;
  dd table[exp_table_size];
  double table_hi[exp_table_size], table_lo[exp_table_size];  // the same, split (gathers)
  dd exp_coef[exp_degree + 1];  // 1/k!
  // trig: pi/2 = P1 + P2 + P3 + P4, P1 with 32 bits (k P1 exact for |k| < 2^21)
  double two_over_pi, p1, p2, p3, p4;
  dd sin_coef[trig_terms], cos_coef[trig_terms];  // (-1)^k/(2k+1)!, (-1)^k/(2k)!

  constants() {
    mp_local l, t, c;
    mpfr_const_log2(l.x, MPFR_RNDN);
    mpfr_div_ui(l.x, l.x, exp_table_size, MPFR_RNDN);
    inv_l = 1.0 / mpfr_get_d(l.x, MPFR_RNDN);
    split(l.x, 35, {&l1, &l2, &l3});
    for (int j = 0; j < exp_table_size; ++j) {
      mpfr_set_si(t.x, j, MPFR_RNDN);
      mpfr_div_ui(t.x, t.x, exp_table_size, MPFR_RNDN);
      mpfr_exp2(t.x, t.x, MPFR_RNDN);
      table[j] = dd_of(t.x);
      table_hi[j] = table[j].hi, table_lo[j] = table[j].lo;
    }
    mpfr_set_ui(c.x, 1, MPFR_RNDN);  // running 1/k!
    for (int k = 0; k <= exp_degree; ++k) {
      if (k > 0) mpfr_div_ui(c.x, c.x, k, MPFR_RNDN);
      exp_coef[k] = dd_of(c.x);
    }
    mpfr_const_pi(t.x, MPFR_RNDN);
    mpfr_div_2ui(t.x, t.x, 1, MPFR_RNDN);
    two_over_pi = 1.0 / mpfr_get_d(t.x, MPFR_RNDN);
    split(t.x, 32, {&p1, &p2, &p3, &p4});
    mpfr_set_ui(c.x, 1, MPFR_RNDN);  // running 1/n!
    for (int n = 0; n < 2 * trig_terms; ++n) {
      if (n > 0) mpfr_div_ui(c.x, c.x, n, MPFR_RNDN);
      dd v = dd_of(c.x);
      if ((n / 2) % 2) v = neg(v);
      // (not `(n % 2 ? sin_coef : cos_coef)[n / 2] = v`: GCC 12's
      // -fsanitize=object-size misjudges the size of that conditional
      // array and reports a store past it)
      if (n % 2)
        sin_coef[n / 2] = v;
      else
        cos_coef[n / 2] = v;
    }
  }
};

const constants& K() {
  static const constants k;
  return k;
}

template <int N>
dd horner(const dd (&c)[N], dd x) {
  dd a = c[N - 1];
  for (int k = N - 2; k >= 0; --k) a = add(mul(a, x), c[k]);
  return a;
}

unsigned thread_count(unsigned requested, std::size_t work_items) {
  unsigned t = requested ? requested : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::size_t>(t, std::max<std::size_t>(1, work_items)));
}

// Runs body(i) for i in [0, n) on `threads` threads, rows handed out in chunks.
template <class F>
void parallel_rows(std::size_t n, unsigned threads, F body) {
  std::atomic<std::size_t> next{0};
  const std::size_t chunk = std::max<std::size_t>(1, n / (16 * threads));
  // the first exception of any thread (a refused input) stops the others
  // and is rethrown to the caller once every thread has joined
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    try {
      for (;;) {
        std::size_t b = next.fetch_add(chunk);
        if (b >= n) return;
        for (std::size_t i = b; i < std::min(n, b + chunk); ++i) body(i);
      }
    } catch (...) {
      next.store(n);
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  if (threads <= 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& th : pool) th.join();
  }
  if (error) std::rethrow_exception(error);
}

void require_finite(const double* x, std::size_t n, const char* what) {
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i]))
      throw std::domain_error(std::string("fast reference: non-finite value in ") + what +
                              " at index " + std::to_string(i));
}

// Safety factor on a bound evaluated in binary64: a few dozen roundings of
// at most u each (docs/fast_reference.md, section 5).
constexpr double bound_slack = 1 + 0x1p-40;
// Absolute error of one dot product's error-free transformations when a
// product underflows (at most 4 roundings of 2^-1075 per term).
constexpr double underflow_per_term = 0x1p-1072;

}  // namespace

// ---- Section 2: exp ------------------------------------------------------

namespace {
// The range reduction and polynomial of exp_dd on t (|t.hi| <= 600 checked by
// the caller), written without branches so that a loop over many t
// vectorises (exp_many); `reduced` returns |r.hi|, which must be <= 0.6 / inv_l.
inline dd exp_core(const constants& c, dd t, double& reduced) {
  const double k = std::nearbyint(t.hi * c.inv_l);
  dd r = add(dd{t.hi - k * c.l1, 0}, t.lo);  // t.hi - k L1 is exact (Sterbenz)
  double p, e;
  two_prod(k, c.l2, p, e);
  r = add(r, dd{-p, -e});
  r = add(r, -(k * c.l3));
  reduced = std::fabs(r.hi);
  // Terms 6..10 (each below 2^-64) in binary64 on r.hi: their error is
  // below 2^-110 absolute; terms 0..5 by Horner in double-word.
  double tail = c.exp_coef[exp_degree].hi;
#pragma GCC unroll 16
  for (int i = exp_degree - 1; i > exp_dd_degree; --i) tail = tail * r.hi + c.exp_coef[i].hi;
  dd poly = add(mul(dd{tail, 0}, r), c.exp_coef[exp_dd_degree]);
#pragma GCC unroll 16
  for (int i = exp_dd_degree - 1; i >= 0; --i) poly = add(mul(poly, r), c.exp_coef[i]);
  const std::int64_t ki = static_cast<std::int64_t>(k);
  const std::int64_t j = ki & (exp_table_size - 1);  // ki mod 256, in [0, 256)
  const std::int64_t m = (ki - j) / exp_table_size;  // in [-866, 866]: 2^m is normal
  const double two_m = std::bit_cast<double>(static_cast<std::uint64_t>(1023 + m) << 52);
  dd z = mul(dd{c.table_hi[j], c.table_lo[j]}, poly);
  return {z.hi * two_m, z.lo * two_m};  // exact: both stay normal
}
}  // namespace

dd exp_dd(dd t) {
  const auto& c = K();
  if (!(std::fabs(t.hi) <= 600)) throw std::domain_error("exp_dd: |t| > 600");
  double reduced;
  const dd z = exp_core(c, t, reduced);
  if (!(reduced <= 0.6 / c.inv_l)) throw std::logic_error("exp_dd: reduction failed");
  return z;
}

void exp_many(const dd* t, dd* out, std::size_t n) {
  const auto& c = K();
  for (std::size_t i = 0; i < n; ++i)
    if (!(std::fabs(t[i].hi) <= 600)) throw std::domain_error("exp_dd: |t| > 600");
  const double limit = 0.6 / c.inv_l;
  int failed = 0;
#pragma omp simd reduction(| : failed)
  for (std::size_t i = 0; i < n; ++i) {
    double reduced;
    out[i] = exp_core(c, t[i], reduced);
    failed |= !(reduced <= limit);
  }
  if (failed) throw std::logic_error("exp_dd: reduction failed");
}

// ---- Section 3: sin and cos ----------------------------------------------

void sincos_dd(dd a, dd& s, dd& co) {
  const auto& c = K();
  if (!(std::fabs(a.hi) < max_angle)) throw std::domain_error("sincos_dd: |angle| >= 2^21");
  const double k = std::nearbyint(a.hi * c.two_over_pi);
  dd r = add(dd{a.hi - k * c.p1, 0}, a.lo);  // exact (Sterbenz) for k != 0
  double p, e;
  two_prod(k, c.p2, p, e);
  r = add(r, dd{-p, -e});
  two_prod(k, c.p3, p, e);
  r = add(r, dd{-p, -e});
  r = add(r, -(k * c.p4));
  if (!(std::fabs(r.hi) <= 0.786)) throw std::logic_error("sincos_dd: reduction failed");
  const dd z = mul(r, r);
  const dd sr = mul(r, horner(c.sin_coef, z));
  const dd cr = horner(c.cos_coef, z);
  switch (static_cast<long>(k) & 3) {
    case 0: s = sr, co = cr; break;
    case 1: s = cr, co = neg(sr); break;
    case 2: s = neg(sr), co = neg(cr); break;
    default: s = neg(cr), co = sr; break;
  }
}

dd to_dd(const hp& x) {
  mp_local t;
  mpfr_set(t.x, x.backend().data(), MPFR_RNDN);
  return dd_of(t.x);
}

hp to_hp(dd x) { return hp(x.hi) + hp(x.lo); }

// ---- Section 4: attention ------------------------------------------------

namespace {
constexpr std::size_t lanes = 16;  // keys per block of the score kernel

// x + y as fma(x, 1, y): the same correctly rounded sum, bit for bit (sign
// of zero, infinities and NaN included), issued to the multiply-add units.
// The kernels below are bound by additions, and x86 cores of the Zen family
// run additions on two pipes and multiply-adds on two others; this moves
// the sums off the TwoSum chain to the idle pair.
inline double add_on_fma(double x, double y) { return std::fma(x, 1.0, y); }

// One term of Dot2: S += p by TwoSum, its exact error q and the product's
// error `err` go to C, |q| + |err| to E (the bound's magnitude).
inline void dot2_step(double& S, double& C, double& E, double p, double err) {
  double s, q;
  two_sum(S, p, s, q);
  S = s;
  C = add_on_fma(C, add_on_fma(q, err));
  E = add_on_fma(E, add_on_fma(std::fabs(q), std::fabs(err)));
}

// Scores of R queries (row r at q + r d) against one block of `lanes` keys
// (kb: d x lanes, component-major): Ogita-Rump-Oishi Dot2 per lane, keeping
// the sum S + C unrounded and E = sum |q| + |pe| for the bound gamma_2d E.
// Row r's sums go to S + r stride (C, E alike). The rows share each load of
// the block (the keys stream from memory once per R rows) and each row's
// sums see the same terms in the same order as alone.
#pragma GCC push_options
#pragma GCC optimize("tree-vectorize")
template <std::size_t R>
void score_block(const double* q, const double* kb, std::size_t d, double* S, double* C,
                 double* E, std::size_t stride) {
  double s_[R][lanes] = {}, c_[R][lanes] = {}, e_[R][lanes] = {};
  for (std::size_t c = 0; c < d; ++c) {
    double x[R];
    for (std::size_t r = 0; r < R; ++r) x[r] = q[r * d + c];
    const double* y = kb + c * lanes;
#pragma omp simd
    for (std::size_t l = 0; l < lanes; ++l) {
#pragma GCC unroll 4
      for (std::size_t r = 0; r < R; ++r) {
        double p, pe;
        two_prod(x[r], y[l], p, pe);
        dot2_step(s_[r][l], c_[r][l], e_[r][l], p, pe);
      }
    }
  }
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t l = 0; l < lanes; ++l)
      S[r * stride + l] = s_[r][l], C[r * stride + l] = c_[r][l], E[r * stride + l] = e_[r][l];
}

// One term e_j v_jc of N_c (below): the product's error and el v in `err`.
inline void weighted_step(double eh, double el, double v, double abs_v, double& S, double& C,
                          double& E, double& M) {
  double p, pe;
  two_prod(eh, v, p, pe);
  dot2_step(S, C, E, p, std::fma(el, v, pe));
  M = std::fma(eh, abs_v, M);
}

// N_c += sum_j e_j v_jc over R query rows (row r's weights at e + r n_k, its
// sums at S + r d_v, C, E and M alike), every column at once: the same Dot2
// with the double-word weight e = eh + el (t = el v + pe, one rounding), and
// M_c = sum_j eh |v_jc| for the magnitude. |v| is taken as it is loaded
// (reading a stored |V| beside V doubled the memory the kernel streams per
// row, and it is bound by that, not by arithmetic).
// Keys of weight zero in every row are skipped; the others are taken B at a
// time, in the order of j, so each column's sums see the same terms in the
// same order as one key at a time while S, C, E and M stay in registers. A
// key of weight zero in one row but not another is a term e = 0 there,
// which leaves that row's sums unchanged bit for bit: p = 0 v = +-0, pe = +0,
// t = +0, TwoSum(S, +-0) = (S, +0), and S, C, E and M, sums from +0 of
// rounded results, are never -0 (docs/fast_reference.md, section 4.5).
// `live`: scratch of n_k entries.
template <std::size_t R>
void weighted_rows(const dd* e, const double* v, std::size_t n_k, std::size_t d_v, double* S,
                   double* C, double* E, double* M, std::size_t* live) {
  std::size_t n = 0;
  for (std::size_t j = 0; j < n_k; ++j) {
    bool any = false;
    for (std::size_t r = 0; r < R; ++r) any |= e[r * n_k + j].hi != 0;
    if (any) live[n++] = j;
  }
  // B keys at a time: the columns' sums are loaded and stored once per B terms
  // (with two rows, four: eight spilled the weights' registers)
  constexpr std::size_t B = R == 1 ? 8 : 4;
  std::size_t t = 0;
  for (; t + B <= n; t += B) {
    double h[R][B], l[R][B];
    const double* vr[B];
    for (std::size_t k = 0; k < B; ++k) {
      const std::size_t j = live[t + k];
      vr[k] = v + j * d_v;
      for (std::size_t r = 0; r < R; ++r) h[r][k] = e[r * n_k + j].hi, l[r][k] = e[r * n_k + j].lo;
    }
#pragma omp simd
    for (std::size_t c = 0; c < d_v; ++c) {
      double s[R], cc[R], ee[R], m[R];
      for (std::size_t r = 0; r < R; ++r)
        s[r] = S[r * d_v + c], cc[r] = C[r * d_v + c], ee[r] = E[r * d_v + c], m[r] = M[r * d_v + c];
#pragma GCC unroll 8
      for (std::size_t k = 0; k < B; ++k) {
        const double x = vr[k][c], ax = std::fabs(x);
#pragma GCC unroll 4
        for (std::size_t r = 0; r < R; ++r) weighted_step(h[r][k], l[r][k], x, ax, s[r], cc[r], ee[r], m[r]);
      }
      for (std::size_t r = 0; r < R; ++r)
        S[r * d_v + c] = s[r], C[r * d_v + c] = cc[r], E[r * d_v + c] = ee[r], M[r * d_v + c] = m[r];
    }
  }
  for (; t < n; ++t) {
    const std::size_t j = live[t];
    const double* vr = v + j * d_v;
    for (std::size_t r = 0; r < R; ++r) {
      const dd w = e[r * n_k + j];
#pragma omp simd
      for (std::size_t c = 0; c < d_v; ++c)
        weighted_step(w.hi, w.lo, vr[c], std::fabs(vr[c]), S[r * d_v + c], C[r * d_v + c],
                      E[r * d_v + c], M[r * d_v + c]);
    }
  }
}
#pragma GCC pop_options

// |Dot2 (S, C, E) of n terms - exact| (docs section 4.1): g E / (1 - g) with
// g = gamma_{2n+1}, times the slack, plus n underflows. The n-dependent
// parts are computed once per n.
struct dot2_bound {
  double g, one_minus_g, underflow;
  explicit dot2_bound(std::size_t n)
      : g(gamma_n(2.0 * static_cast<double>(n) + 1)), one_minus_g(1 - g),
        underflow(static_cast<double>(n) * underflow_per_term) {}
  double operator()(double E) const { return (g * E / one_minus_g) * bound_slack + underflow; }
};

// Query rows per pass of the kernels: the keys and values are read once for
// this many rows (1024 x 1024 x 128, one core: 0.37 -> 0.27 ns per multiply-add
// with |V| taken as loaded; four rows were no faster).
constexpr std::size_t row_block = 2;

// A worker's buffers for one block of query rows, reused from block to block.
struct row_buffers {
  std::vector<double> S, C, E, delta, nS, nC, nE, nM;
  std::vector<dd> score, t, e;
  std::vector<unsigned char> kept;
  std::vector<std::size_t> live;
  void size_for(std::size_t n_k, std::size_t padded, std::size_t d_v) {
    if (S.size() < row_block * padded)
      S.resize(row_block * padded), C.resize(row_block * padded), E.resize(row_block * padded);
    if (score.size() < n_k)
      delta.resize(n_k), score.resize(n_k), t.resize(n_k), kept.resize(n_k), live.resize(n_k);
    if (e.size() < row_block * n_k) e.resize(row_block * n_k);
    if (nS.size() < row_block * d_v)
      nS.resize(row_block * d_v), nC.resize(row_block * d_v), nE.resize(row_block * d_v),
          nM.resize(row_block * d_v);
  }
};

// What one row's weights leave for its output (section 4.3).
struct row_weights {
  double eta = 0, err_z = 0, z_low = 0;
  dd Z;
  std::size_t dropped = 0;
};
}  // namespace

result attention(const double* q, const double* k, const double* v, std::size_t n_q,
                 std::size_t n_k, std::size_t d, std::size_t d_v, unsigned threads) {
  if (n_k == 0 || d == 0) throw std::invalid_argument("fast attention: n_k and d must be >= 1");
  require_finite(q, n_q * d, "Q");
  require_finite(k, n_k * d, "K");
  require_finite(v, n_k * d_v, "V");
  K();  // constants before the threads start
  dd isd;
  {
    mp_local t;
    mpfr_set_ui(t.x, static_cast<unsigned long>(d), MPFR_RNDN);
    mpfr_rec_sqrt(t.x, t.x, MPFR_RNDN);
    isd = dd_of(t.x);  // 1/sqrt(d) to (1 + 2u) u^2
  }
  const std::size_t blocks = (n_k + lanes - 1) / lanes;
  const std::size_t padded = blocks * lanes;
  std::vector<double> kb(blocks * d * lanes, 0.0);
  for (std::size_t j = 0; j < n_k; ++j)
    for (std::size_t c = 0; c < d; ++c) kb[((j / lanes) * d + c) * lanes + j % lanes] = k[j * d + c];
  std::vector<double> max_abs_v(d_v, 0.0);
  for (std::size_t j = 0; j < n_k; ++j)
    for (std::size_t c = 0; c < d_v; ++c)
      max_abs_v[c] = std::max(max_abs_v[c], std::fabs(v[j * d_v + c]));

  result r;
  r.rows = n_q, r.cols = d_v;
  r.value.resize(n_q * d_v);
  r.bound.resize(n_q * d_v);
  r.relative.resize(n_q * d_v);
  std::atomic<bool> too_large{false};

  const dot2_bound score_error(d), sum_error(n_k);
  const double isd_up = isd.hi * (1 + 0x1p-50);

  // Row i's weights e (n_k entries) from its scores' sums (S, C, E at
  // stride 1): false when its scores are too large for the bound.
  auto weights_of = [&](row_buffers& buf, const double* S, const double* C, const double* E,
                        dd* e, row_weights& w) {
    double* delta = buf.delta.data();
    dd* score = buf.score.data();
    int huge = 0;
#pragma omp simd reduction(| : huge)
    for (std::size_t j = 0; j < n_k; ++j) {
      dd dot;
      two_sum(S[j], C[j], dot.hi, dot.lo);
      score[j] = mul(dot, isd);
      // section 4.2: Dot2 error scaled, plus isd's rounding and the product
      delta[j] = (isd_up * score_error(E[j]) +
                  (mul_dw_dw_err + 1.01) * u2 * std::fabs(score[j].hi) * (1 + 0x1p-50)) *
                 bound_slack;
      huge |= !(std::fabs(score[j].hi) <= 0x1p900);
    }
    if (huge) return false;
    // m: the largest score as a double-word (not its high part alone: above
    // 2^53 the low part exceeds 1, and t = s - m_hi could pass 600 or more,
    // section 4.3), so t <= 0 up to the subtraction's rounding
    dd m = score[0];
    for (std::size_t j = 1; j < n_k; ++j)
      if (score[j].hi > m.hi || (score[j].hi == m.hi && score[j].lo > m.lo)) m = score[j];
    dd* t = buf.t.data();
    unsigned char* kept = buf.kept.data();
    double delta_max = 0;
    std::size_t dropped = 0;
    const dd minus_m = neg(m);
#pragma omp simd reduction(max : delta_max) reduction(+ : dropped)
    for (std::size_t j = 0; j < n_k; ++j) {
      const dd tj = add(score[j], minus_m);
      const bool keep = !(tj.hi < -600);  // e^t < e^-599: dropped, section 4.3
      kept[j] = keep;
      dropped += !keep;
      const double dj = (delta[j] + add_dw_dw_err * u2 * std::fabs(tj.hi) * 1.01) * bound_slack;
      delta_max = std::max(delta_max, keep ? dj : 0.0);
      t[j] = keep ? tj : dd{0, 0};
    }
    exp_many(t, e, n_k);
    for (std::size_t j = 0; j < n_k; ++j)
      if (!kept[j]) e[j] = dd{0, 0};
    if (!(delta_max < 0x1p-20)) return false;  // the bound below assumes tiny score errors
    w.dropped = dropped;
    w.eta = exp_err * u2 + (1 + exp_err * u2) * std::expm1(delta_max) * bound_slack;  // section 4.3
    // Z = sum_j e_j, the same Dot2 with v = 1.
    double zS = 0, zC = 0, zE = 0;
    for (std::size_t j = 0; j < n_k; ++j) dot2_step(zS, zC, zE, e[j].hi, e[j].lo);
    two_sum(zS, zC, w.Z.hi, w.Z.lo);
    w.err_z = sum_error(zE);
    w.z_low = (w.Z.hi - std::fabs(w.Z.lo) - w.err_z) * (1 - 2 * u);
    return true;
  };
  const double gm = gamma_n(static_cast<double>(n_k) + 1);
  // Row i's outputs from its weighted sums (nS, nC, nE, nM: d_v entries).
  auto output_of = [&](std::size_t i, const row_weights& w, const double* nS, const double* nC,
                       const double* nE, const double* nM) {
    const double weight_term = 2 * w.eta * (1 + w.eta) / ((1 - w.eta) * (1 - w.eta));
    for (std::size_t c = 0; c < d_v; ++c) {
      dd N;
      two_sum(nS[c], nC[c], N.hi, N.lo);
      const double err_n = sum_error(nE[c]);
      const double m_up = (nM[c] * (1 + 2 * u) / (1 - gm) + n_k * underflow_per_term);
      const double a = m_up / w.z_low * (1 + 2 * u);  // >= sum_j e_j |v_jc| / sum_j e_j
      double b = weight_term * a + (err_n + a * w.err_z) / w.z_low * (1 + 2 * u) +
                 div_dw_dw_err * u2 * 1.01 * (a + err_n / w.z_low) +
                 static_cast<double>(w.dropped) * 0x1p-864 * 2 * max_abs_v[c] / w.z_low;
      b *= bound_slack;
      r.value[i * d_v + c] = div(N, w.Z);
      r.bound[i * d_v + c] = b;
      r.relative[i * d_v + c] = a > 0 ? b / a : 0;
    }
  };
  // Rows i0 .. i0 + R - 1, R at a time through the kernels.
  auto rows = [&]<std::size_t R>(std::size_t i0) {
    thread_local row_buffers buf;
    buf.size_for(n_k, padded, d_v);
    double *S = buf.S.data(), *C = buf.C.data(), *E = buf.E.data();
    for (std::size_t b = 0; b < blocks; ++b)
      score_block<R>(q + i0 * d, kb.data() + b * d * lanes, d, S + b * lanes, C + b * lanes,
                     E + b * lanes, padded);
    row_weights w[R];
    for (std::size_t r = 0; r < R; ++r)
      if (!weights_of(buf, S + r * padded, C + r * padded, E + r * padded, buf.e.data() + r * n_k,
                      w[r])) {
        too_large = true;
        return;
      }
    if (too_large) return;
    std::fill_n(buf.nS.data(), R * d_v, 0.0), std::fill_n(buf.nC.data(), R * d_v, 0.0);
    std::fill_n(buf.nE.data(), R * d_v, 0.0), std::fill_n(buf.nM.data(), R * d_v, 0.0);
    weighted_rows<R>(buf.e.data(), v, n_k, d_v, buf.nS.data(), buf.nC.data(), buf.nE.data(),
                     buf.nM.data(), buf.live.data());
    for (std::size_t r = 0; r < R; ++r)
      output_of(i0 + r, w[r], buf.nS.data() + r * d_v, buf.nC.data() + r * d_v,
                buf.nE.data() + r * d_v, buf.nM.data() + r * d_v);
  };
  const std::size_t row_blocks = (n_q + row_block - 1) / row_block;
  parallel_rows(row_blocks, thread_count(threads, row_blocks), [&](std::size_t b) {
    const std::size_t i0 = b * row_block;
    if (i0 + row_block <= n_q)
      rows.template operator()<row_block>(i0);
    else
      for (std::size_t i = i0; i < n_q; ++i) rows.template operator()<1>(i);
  });
  if (too_large)
    throw std::domain_error(
        "fast attention: scores too large for a useful bound (|score| > 2^900 or error > 2^-20)");
  return r;
}

// ---- Section 5: RoPE and the sinusoid ------------------------------------

namespace {
// |computed angle - p w| for the angle p w computed as mul(w_dd, p).
double angle_error(dd angle) {
  return (mul_dw_fp_err + 1.01) * u2 * std::fabs(angle.hi) * (1 + 0x1p-50);
}
}  // namespace

result rope(const double* x, const double* pos, std::size_t n, std::size_t head_dim,
            std::size_t n_axes, const std::vector<rope_pair>& pairs, unsigned threads) {
  return rope_scaled(x, pos, n, head_dim, n_axes, pairs, hp(1), threads);
}

result rope_scaled(const double* x, const double* pos, std::size_t n, std::size_t head_dim,
                   std::size_t n_axes, const std::vector<rope_pair>& pairs, const hp& scale,
                   unsigned threads) {
  require_finite(x, n * head_dim, "X");
  require_finite(pos, n * n_axes, "positions");
  K();
  std::vector<dd> speed;
  for (const auto& p : pairs) {
    if (p.a >= head_dim || p.b >= head_dim || p.axis >= n_axes)
      throw std::invalid_argument("fast rope: pair outside the head or the axes");
    speed.push_back(to_dd(p.speed));
  }
  // The scale a, rounded once to a double-word (u^2 (1 + 2u) relative); 1 is exact.
  const dd a = to_dd(scale);
  const bool scaled = !(a.hi == 1 && a.lo == 0);
  if (!std::isfinite(a.hi)) throw std::domain_error("fast rope: the scale is not finite");
  result r;
  r.rows = n, r.cols = head_dim;
  r.value.resize(n * head_dim);
  r.bound.assign(n * head_dim, 0.0);
  r.relative.assign(n * head_dim, 0.0);
  for (std::size_t i = 0; i < n * head_dim; ++i) r.value[i] = dd{x[i], 0};
  // sin and cos once per pair and distinct position of its axis (a grid of
  // patches repeats each row and column position across many rows): the same
  // angle, the same values and bounds as computed row by row
  std::vector<std::vector<double>> distinct(n_axes);
  std::vector<std::size_t> at(n * n_axes);
  for (std::size_t a = 0; a < n_axes; ++a) {
    for (std::size_t row = 0; row < n; ++row) distinct[a].push_back(pos[row * n_axes + a]);
    std::sort(distinct[a].begin(), distinct[a].end());
    distinct[a].erase(std::unique(distinct[a].begin(), distinct[a].end()), distinct[a].end());
    for (std::size_t row = 0; row < n; ++row)
      at[row * n_axes + a] = std::size_t(std::lower_bound(distinct[a].begin(), distinct[a].end(), pos[row * n_axes + a]) -
                                         distinct[a].begin());
  }
  struct turn {
    dd s, c;
    double eps;  ///< sin's and cos's absolute error, the angle's included
  };
  std::vector<std::size_t> first(pairs.size() + 1, 0);
  for (std::size_t k = 0; k < pairs.size(); ++k) first[k + 1] = first[k] + distinct[pairs[k].axis].size();
  std::vector<turn> turns(first.back());
  // on the run's threads, one pair each (positions without repeats leave as
  // many sines and cosines as rows)
  parallel_rows(pairs.size(), thread_count(threads, n / 64), [&](std::size_t k) {
    for (std::size_t j = 0; j < distinct[pairs[k].axis].size(); ++j) {
      turn& t = turns[first[k] + j];
      const dd angle = mul(speed[k], distinct[pairs[k].axis][j]);
      sincos_dd(angle, t.s, t.c);
      t.eps = trig_err * u2 + angle_error(angle);
    }
  });
  parallel_rows(n, thread_count(threads, n / 64), [&](std::size_t row) {
    const double* xr = x + row * head_dim;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const auto& p = pairs[k];
      const turn& t = turns[first[k] + at[row * n_axes + p.axis]];
      const dd s = t.s, c = t.c;
      const double xa = xr[p.a], xb = xr[p.b];
      const double eps = t.eps;
      const double b =
          (std::fabs(xa) + std::fabs(xb)) * (eps + (mul_dw_fp_err + add_dw_dw_err) * u2 * 1.01) *
          bound_slack;
      dd va = add(mul(c, xa), neg(mul(s, xb)));
      dd vb = add(mul(s, xa), mul(c, xb));
      double ba = b, bb = b;
      if (scaled) {
        // section 5: |a v - a' v'| <= |a| b + (|v| + b) |a| (u^2 (1 + 2u)) and the
        // double-word product adds mul_dw_dw_err u^2 of |a' v'|.
        const double A = std::fabs(a.hi) * (1 + 0x1p-50);
        auto grow = [&](double bound, dd v) {
          return (A * bound + (std::fabs(v.hi) * (1 + 0x1p-50) + bound) * A *
                                  (1.01 + mul_dw_dw_err * 1.01) * u2) *
                 bound_slack;
        };
        ba = grow(b, va), bb = grow(b, vb);
        va = mul(va, a), vb = mul(vb, a);
      }
      r.value[row * head_dim + p.a] = va;
      r.value[row * head_dim + p.b] = vb;
      r.bound[row * head_dim + p.a] = ba;
      r.bound[row * head_dim + p.b] = bb;
      r.relative[row * head_dim + p.a] = va.hi != 0 ? ba / std::fabs(va.hi) : 0;
      r.relative[row * head_dim + p.b] = vb.hi != 0 ? bb / std::fabs(vb.hi) : 0;
    }
  });
  return r;
}

result sinusoid(const std::vector<double>& positions, const std::vector<hp>& speeds,
                unsigned threads) {
  require_finite(positions.data(), positions.size(), "positions");
  K();
  std::vector<dd> w;
  for (const auto& s : speeds) w.push_back(to_dd(s));
  result r;
  r.rows = positions.size(), r.cols = 2 * speeds.size();
  r.value.resize(r.rows * r.cols);
  r.bound.resize(r.rows * r.cols);
  r.relative.resize(r.rows * r.cols);
  parallel_rows(r.rows, thread_count(threads, r.rows / 64), [&](std::size_t row) {
    for (std::size_t i = 0; i < w.size(); ++i) {
      const dd angle = mul(w[i], positions[row]);
      dd s, c;
      sincos_dd(angle, s, c);
      const double b = (trig_err * u2 + angle_error(angle)) * bound_slack;
      const std::size_t o = row * r.cols + 2 * i;
      r.value[o] = s, r.value[o + 1] = c;
      r.bound[o] = r.bound[o + 1] = b;
      r.relative[o] = s.hi != 0 ? b / std::fabs(s.hi) : 0;
      r.relative[o + 1] = c.hi != 0 ? b / std::fabs(c.hi) : 0;
    }
  });
  return r;
}

}  // namespace pv::fast
