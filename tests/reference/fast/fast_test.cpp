// The fast tier agrees with the MPFR tier within the fast tier's own bound,
// on random and structured cases, and that bound is small (not vacuous).
#include "reference/fast/fast.h"
#include "numerics/fast_rope.h"

#include "numerics/attention.h"
#include "numerics/rope.h"
#include "numerics/rope_scaling.h"
#include "numerics/sinusoid.h"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

namespace pv::fast {
namespace reference_fast_fast_test {  // this file's names: a unity build compiles several test files as one
namespace {

// The MPFR reference at 256 bits errs by at most ~n 2^-250 relative to the
// magnitudes involved; this is added to the fast bound (stated, not tuned).
const double mpfr_slack = 0x1p-230;

struct attention_case {
  std::string name;
  std::size_t n_q, n_k, d, d_v;
  std::vector<double> q, k, v;
};

std::vector<double> uniform(std::mt19937_64& g, std::size_t n, double scale = 1) {
  std::uniform_real_distribution<double> u(-scale, scale);
  std::vector<double> x(n);
  for (auto& e : x) e = u(g);
  return x;
}

attention_case random_case(std::mt19937_64& g, std::size_t n_q, std::size_t n_k, std::size_t d,
                           std::size_t d_v, double scale = 1) {
  return {"random " + std::to_string(n_q) + "x" + std::to_string(n_k) + "x" + std::to_string(d) +
              "x" + std::to_string(d_v),
          n_q, n_k, d, d_v, uniform(g, n_q * d, scale), uniform(g, n_k * d, scale),
          uniform(g, n_k * d_v)};
}

matrix<hp> to_matrix(const std::vector<double>& x, std::size_t rows, std::size_t cols) {
  matrix<hp> m(rows, cols);
  for (std::size_t i = 0; i < x.size(); ++i) m.a[i] = hp(x[i]);
  return m;
}

struct agreement {
  double worst_ratio = 0;     // max |fast - mpfr| / bound
  double worst_relative = 0;  // max bound / sum_j w_j |v_jc|
};

agreement check_attention(const attention_case& c) {
  SCOPED_TRACE(c.name);
  result f = attention(c.q.data(), c.k.data(), c.v.data(), c.n_q, c.n_k, c.d, c.d_v, 2);
  matrix<hp> ref = pv::attention(to_matrix(c.q, c.n_q, c.d), to_matrix(c.k, c.n_k, c.d),
                                 to_matrix(c.v, c.n_k, c.d_v));
  agreement a;
  for (std::size_t i = 0; i < ref.a.size(); ++i) {
    const double err = std::fabs(static_cast<double>(to_hp(f.value[i]) - ref.a[i]));
    const double allowed = f.bound[i] + mpfr_slack * (1 + std::fabs(f.value[i].hi));
    EXPECT_LE(err, allowed) << "entry " << i << " fast " << f.value[i].hi << " + " << f.value[i].lo
                            << " mpfr " << ref::to_decimal(ref.a[i]) << " bound " << f.bound[i];
    if (f.bound[i] > 0) a.worst_ratio = std::max(a.worst_ratio, err / f.bound[i]);
    a.worst_relative = std::max(a.worst_relative, f.relative[i]);
  }
  return a;
}

class FastTier : public ::testing::Test {
 protected:
  void SetUp() override { ref::set_precision_bits(256); }
};

TEST_F(FastTier, AttentionRandomShapesAgreeWithMpfrWithinTheBound) {
  std::mt19937_64 g(20261201);
  const std::size_t shapes[][4] = {{1, 1, 1, 1},  {1, 2, 3, 1},   {3, 15, 8, 5},  {2, 16, 32, 4},
                                   {4, 17, 16, 3}, {1, 65, 64, 8}, {5, 33, 80, 7}, {2, 129, 96, 2},
                                   {3, 7, 128, 16}};
  double worst = 0, worst_rel = 0;
  for (const auto& s : shapes) {
    for (double scale : {1.0, 3.0}) {
      auto a = check_attention(random_case(g, s[0], s[1], s[2], s[3], scale));
      worst = std::max(worst, a.worst_ratio);
      worst_rel = std::max(worst_rel, a.worst_relative);
    }
  }
  // Not vacuous: every bound is below 2^-85 of the entry's magnitude sum.
  EXPECT_LE(worst_rel, 0x1p-85);
  std::printf("worst |fast - mpfr| / bound = %.3g, worst bound / magnitude = 2^%.1f\n", worst,
              std::log2(worst_rel));
}

TEST_F(FastTier, AttentionStructuredInputs) {
  std::mt19937_64 g(7);
  std::vector<attention_case> cases;
  {  // repeated key rows: exact score ties
    auto c = random_case(g, 3, 20, 16, 4);
    for (std::size_t j = 10; j < 20; ++j)
      for (std::size_t t = 0; t < 16; ++t) c.k[j * 16 + t] = c.k[(j - 10) * 16 + t];
    c.name = "repeated keys";
    cases.push_back(c);
  }
  {  // all keys identical
    auto c = random_case(g, 2, 64, 32, 3);
    for (std::size_t j = 1; j < 64; ++j)
      for (std::size_t t = 0; t < 32; ++t) c.k[j * 32 + t] = c.k[t];
    c.name = "identical keys";
    cases.push_back(c);
  }
  {  // zero rows (padding) in Q, K and V
    auto c = random_case(g, 3, 17, 8, 4);
    for (std::size_t t = 0; t < 8; ++t) c.q[8 + t] = 0, c.k[16 * 8 + t] = 0, c.k[3 * 8 + t] = 0;
    for (std::size_t t = 0; t < 4; ++t) c.v[5 * 4 + t] = 0;
    c.name = "zero rows";
    cases.push_back(c);
  }
  {  // one dominant score, the rest underflowing (score gaps of thousands)
    auto c = random_case(g, 2, 31, 4, 3);
    for (std::size_t t = 0; t < 4; ++t) c.q[t] = 100, c.q[4 + t] = -100;
    for (std::size_t t = 0; t < 4; ++t) c.k[7 * 4 + t] = 20;
    c.name = "dominant score";
    cases.push_back(c);
  }
  {  // large scores (hundreds), as from unnormalised float16 activations
    auto c = random_case(g, 2, 9, 4, 2, 1.0);
    for (auto& x : c.q) x *= 300;
    c.name = "large scores";
    cases.push_back(c);
  }
  {  // subnormal and tiny values
    auto c = random_case(g, 2, 12, 6, 3);
    for (std::size_t i = 0; i < c.k.size(); i += 2) c.k[i] *= 0x1p-1060;
    for (std::size_t i = 0; i < c.v.size(); i += 4) c.v[i] = 0x1p-1070;
    c.q[0] = 0x1p-1074;
    c.name = "subnormals";
    cases.push_back(c);
  }
  for (const auto& c : cases) {
    auto a = check_attention(c);
    EXPECT_LE(a.worst_relative, 0x1p-85) << c.name;
  }
}

// A large case as the check would run it: the fast tier computes every
// entry, MPFR judges a random sample of rows (each against all 600 keys).
TEST_F(FastTier, LargeCaseSampledByMpfr) {
  std::mt19937_64 g(11);
  const std::size_t n = 600, d = 128, dv = 64;  // 600: not a multiple of the 16 lanes
  auto c = random_case(g, n, n, d, dv);
  result f = attention(c.q.data(), c.k.data(), c.v.data(), n, n, d, dv, 2);
  const auto K = to_matrix(c.k, n, d), V = to_matrix(c.v, n, dv);
  std::uniform_int_distribution<std::size_t> row(0, n - 1);
  for (int s = 0; s < 3; ++s) {
    const std::size_t i = s == 0 ? n - 1 : row(g);
    std::vector<double> qi(c.q.begin() + i * d, c.q.begin() + (i + 1) * d);
    matrix<hp> ref = pv::attention(to_matrix(qi, 1, d), K, V);
    for (std::size_t col = 0; col < dv; ++col) {
      const std::size_t e = i * dv + col;
      const double err = std::fabs(static_cast<double>(to_hp(f.value[e]) - ref.a[col]));
      EXPECT_LE(err, f.bound[e] + mpfr_slack) << "row " << i << " column " << col;
      EXPECT_LE(f.relative[e], 0x1p-80);
    }
  }
}

// The kernels take query rows in pairs (docs section 4.5): every row's
// values and bounds are those of the row computed alone, bit for bit, also
// when the rows of a pair drop different keys (a dominant score in some rows
// only), when V holds zeros and negative entries (products of -0), with an
// odd number of rows (the last one alone) and key counts off the kernels'
// blocks.
TEST_F(FastTier, RowsComputedTogetherEqualEachRowAlone) {
  std::mt19937_64 g(20261207);
  for (const std::size_t n_k : {5, 37, 70}) {
    const std::size_t n_q = 7, d = 12, d_v = 19;
    auto c = random_case(g, n_q, n_k, d, d_v);
    for (std::size_t t = 0; t < d; ++t) {
      c.k[2 * d + t] = 20;                          // key 2: dominant for rows 0, 3, 4
      c.q[0 * d + t] = c.q[3 * d + t] = 100;        // the others' scores are 4000 lower
      c.q[4 * d + t] = t % 2 ? 100 : 99;
    }
    for (std::size_t x = 0; x < c.v.size(); x += 3) c.v[x] = x % 2 ? -0.0 : 0.0;
    const result all = attention(c.q.data(), c.k.data(), c.v.data(), n_q, n_k, d, d_v, 2);
    for (std::size_t i = 0; i < n_q; ++i) {
      const result one = attention(c.q.data() + i * d, c.k.data(), c.v.data(), 1, n_k, d, d_v, 1);
      for (std::size_t col = 0; col < d_v; ++col) {
        const std::size_t e = i * d_v + col;
        SCOPED_TRACE("n_k " + std::to_string(n_k) + " row " + std::to_string(i) + " column " +
                     std::to_string(col));
        EXPECT_EQ(std::bit_cast<std::uint64_t>(all.value[e].hi),
                  std::bit_cast<std::uint64_t>(one.value[col].hi));
        EXPECT_EQ(std::bit_cast<std::uint64_t>(all.value[e].lo),
                  std::bit_cast<std::uint64_t>(one.value[col].lo));
        EXPECT_EQ(std::bit_cast<std::uint64_t>(all.bound[e]),
                  std::bit_cast<std::uint64_t>(one.bound[col]));
        EXPECT_EQ(std::bit_cast<std::uint64_t>(all.relative[e]),
                  std::bit_cast<std::uint64_t>(one.relative[col]));
      }
    }
  }
}

TEST_F(FastTier, AttentionRejectsNonFiniteInput) {
  std::vector<double> q{1, NAN}, k{1, 2}, v{3};
  EXPECT_THROW(attention(q.data(), k.data(), v.data(), 1, 1, 2, 1), std::domain_error);
}

TEST_F(FastTier, ExpWithinItsStatedRelativeError) {
  std::mt19937_64 g(3);
  std::uniform_real_distribution<double> t(-600, 600), lo(-1, 1);
  double worst = 0;
  for (int i = 0; i < 3000; ++i) {
    double th = i < 5 ? std::ldexp(1.0, -i * 20) : t(g);
    dd x{th, 0};
    two_sum(th, lo(g) * 0x1p-54 * std::fabs(th), x.hi, x.lo);
    hp exact = exp(to_hp(x));
    double rel = std::fabs(static_cast<double>((to_hp(exp_dd(x)) - exact) / exact));
    worst = std::max(worst, rel);
  }
  EXPECT_LE(worst, exp_err * u2);
  EXPECT_GT(worst, 0);  // the comparison sees the last bits
  std::printf("exp: worst relative error 2^%.2f (stated 2^%.2f)\n", std::log2(worst),
              std::log2(exp_err * u2));
}

// The attention's vectorised exponential gives exp_dd's values bit for bit
// (same operations per lane), over the whole range, ties of the reduction
// (k L exactly) and lengths that leave a remainder past the vector width;
// out of range it throws as exp_dd does.
TEST_F(FastTier, ExpManyEqualsExpDdBitForBit) {
  std::mt19937_64 g(5);
  std::uniform_real_distribution<double> t(-600, 600), lo(-1, 1);
  for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(8), std::size_t(61), std::size_t(1000)}) {
    std::vector<dd> x(n), got(n);
    for (std::size_t i = 0; i < n; ++i) {
      double th = i % 5 == 0 ? std::ldexp(std::nearbyint(t(g)), -8) * 0.6931471805599453 : t(g);
      if (i % 7 == 3) th = -0.0;
      two_sum(th, lo(g) * 0x1p-54 * std::fabs(th), x[i].hi, x[i].lo);
    }
    exp_many(x.data(), got.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      const dd want = exp_dd(x[i]);
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got[i].hi), std::bit_cast<std::uint64_t>(want.hi)) << "n " << n << " i " << i;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got[i].lo), std::bit_cast<std::uint64_t>(want.lo)) << "n " << n << " i " << i;
    }
  }
  std::vector<dd> bad{{1, 0}, {-601, 0}, {2, 0}}, out(3);
  EXPECT_THROW(exp_many(bad.data(), out.data(), bad.size()), std::domain_error);
  EXPECT_THROW(exp_dd(bad[1]), std::domain_error);
}

TEST_F(FastTier, SinCosWithinTheirStatedAbsoluteError) {
  std::mt19937_64 g(4);
  std::uniform_real_distribution<double> a(-1, 1);
  double worst = 0;
  for (int i = 0; i < 3000; ++i) {
    double ah = a(g) * std::ldexp(1.0, i % 22 - 1);  // up to 2^21
    if (i < 4) ah = 1.5707963267948966 * (i + 1);       // near the quadrant edges
    dd x;
    two_sum(ah, a(g) * 0x1p-54 * std::fabs(ah), x.hi, x.lo);
    dd s, c;
    sincos_dd(x, s, c);
    const hp X = to_hp(x);
    worst = std::max(worst, std::fabs(static_cast<double>(to_hp(s) - sin(X))));
    worst = std::max(worst, std::fabs(static_cast<double>(to_hp(c) - cos(X))));
  }
  EXPECT_LE(worst, trig_err * u2);
  EXPECT_GT(worst, 0);
  std::printf("sin/cos: worst absolute error 2^%.2f (stated 2^%.2f)\n", std::log2(worst),
              std::log2(trig_err * u2));
}

void expect_rope_agrees(const rope_layout<hp>& L, const std::vector<std::vector<double>>& pos,
                        std::mt19937_64& g) {
  const std::size_t n = pos.size(), D = L.head_dim;
  auto x = uniform(g, n * D);
  std::vector<double> flat;
  for (const auto& p : pos) flat.insert(flat.end(), p.begin(), p.end());
  result f = rope(x.data(), flat.data(), n, L, 2);
  matrix<hp> ref = rope_apply(L, to_matrix(x, n, D), pos);
  double worst_rel = 0;
  std::vector<bool> rotated(D, false);
  for (const auto& p : L.pairs) rotated[p.a] = rotated[p.b] = true;
  for (std::size_t i = 0; i < ref.a.size(); ++i) {
    const double err = std::fabs(static_cast<double>(to_hp(f.value[i]) - ref.a[i]));
    EXPECT_LE(err, f.bound[i] + mpfr_slack) << "entry " << i;
    // components no pair names (partial rotary) come back as given, bound 0
    if (!rotated[i % D]) {
      EXPECT_TRUE(f.value[i].hi == x[i] && f.value[i].lo == 0 && f.bound[i] == 0);
    }
    worst_rel = std::max(worst_rel, f.bound[i]);
  }
  // |x| <= 1: the absolute bound is below 2^-80 up to angles of 2^20.
  EXPECT_LE(worst_rel, 0x1p-80);
}

TEST_F(FastTier, RopeTextAndFluxAgreeWithMpfr) {
  std::mt19937_64 g(5);
  std::vector<double> p1;
  for (int k = 0; k <= 20; ++k)
    for (double off : {-1.0, 0.0, 1.0})
      if (std::ldexp(1.0, k) + off >= 0) p1.push_back(std::ldexp(1.0, k) + off);
  p1.push_back(0);
  for (auto pairing : {pairing::adjacent, pairing::halves})
    expect_rope_agrees(rope_ladder<hp>(128, hp(500000), pairing), positions_1d(p1), g);
  auto grid = flux_grid_ids(5, 7);  // non-square, with text tokens at (0, 0, 0)
  grid.insert(grid.begin(), 3, std::vector<double>{0, 0, 0});
  grid.push_back({0, 63, 63});
  expect_rope_agrees(rope_flux<hp>(), grid, g);
}

// The RoPE configurations of current models (docs/rope-configs.md): one
// scaled ladder per layout, partial rotary, M-RoPE sections, YaRN's attention
// factor on every rotated component. The spellings are those of the presets
// and of the examples; the MPFR layout is the same object.
TEST_F(FastTier, RopeScaledConfigurationsAgreeWithMpfr) {
  std::mt19937_64 g(13);
  std::vector<double> p1{0, 1, 2, 7, 4095, 4096, 4097, 8191, 8192, 8193, 65535, 131071, 131072};
  auto with = [](rope_scaling_kind k, double f, double lo, double hi, double L0, double L = 0) {
    rope_scaling s;
    s.kind = k, s.factor = f, s.low = lo, s.high = hi, s.original_length = L0, s.length = L;
    return s;
  };
  const rope_scaling none{};
  struct cfg {
    std::size_t head_dim;
    std::vector<std::size_t> sections;
    double theta;
    pairing p;
    rope_scaling s;
  };
  const std::vector<cfg> cfgs{
      {128, {128}, 500000, pairing::halves, with(rope_scaling_kind::llama3, 8, 1, 4, 8192)},
      {128, {128}, 10000, pairing::halves, with(rope_scaling_kind::yarn, 16, 1, 32, 4096)},
      {128, {128}, 10000, pairing::adjacent, with(rope_scaling_kind::linear, 4, 0, 0, 0)},
      {128, {128}, 10000, pairing::halves, with(rope_scaling_kind::ntk, 4, 0, 0, 0)},
      {128, {128}, 10000, pairing::halves, with(rope_scaling_kind::dynamic_ntk, 4, 0, 0, 4096, 16384)},
      {80, {32}, 10000, pairing::halves, none},   // phi-2: partial(32)
      {96, {24}, 10000, pairing::halves, none}};  // gpt-neox-20b: partial(24)
  for (const auto& c : cfgs) {
    auto L = rope_scaled_layout<hp>(c.head_dim, c.sections, hp(c.theta), c.p, c.s);
    if (c.s.kind == rope_scaling_kind::yarn) {
      EXPECT_GT(static_cast<double>(L.scale), 1.2);
    }
    expect_rope_agrees(L, positions_1d(p1), g);
  }
  // Qwen2-VL's M-RoPE: one ladder over 128 components in sections of 16, 24, 24 pairs,
  // positions (t, h, w) with text tokens at (t, t, t).
  auto M = rope_scaled_layout<hp>(128, {32, 48, 48}, hp(1000000), pairing::halves, none);
  ASSERT_EQ(M.n_axes, 3u);
  std::vector<std::vector<double>> pos{{0, 0, 0}, {5, 5, 5}, {7, 0, 3}, {7, 31, 63}, {32767, 17, 40}};
  expect_rope_agrees(M, pos, g);
}

// The scale is part of the bound: the same rotation without YaRN's factor is
// outside it (the comparison can fail).
TEST_F(FastTier, RopeScaleMissingIsOutsideTheBound) {
  rope_scaling y;
  y.kind = rope_scaling_kind::yarn, y.factor = 16, y.low = 1, y.high = 32, y.original_length = 4096;
  auto L = rope_scaled_layout<hp>(128, {128}, hp(10000), pairing::halves, y);
  std::mt19937_64 g(17);
  auto x = uniform(g, 128);
  const double p = 1000;
  result unscaled = rope(x.data(), &p, 1, 128, 1, pairs_of(L), 1);
  matrix<hp> ref = rope_apply(L, to_matrix(x, 1, 128), positions_1d({p}));
  std::size_t outside = 0;
  for (std::size_t i = 0; i < 128; ++i)
    outside += std::fabs(static_cast<double>(to_hp(unscaled.value[i]) - ref.a[i])) > unscaled.bound[i];
  EXPECT_GT(outside, 100u);
}

TEST_F(FastTier, SinusoidAgreesWithMpfr) {
  std::vector<double> pos{0, 1, 2, 1023, 1024, 1025, 65535, 1048576};
  auto w = geometric_speeds<hp>(64, hp(10000));
  result f = sinusoid(pos, w, 2);
  matrix<hp> ref = sinusoid_with_speeds(pos, w);
  for (std::size_t i = 0; i < ref.a.size(); ++i) {
    const double err = std::fabs(static_cast<double>(to_hp(f.value[i]) - ref.a[i]));
    EXPECT_LE(err, f.bound[i] + mpfr_slack) << "entry " << i;
    EXPECT_LE(f.bound[i], 0x1p-80);
  }
}

// The test has teeth: an answer off by a few bounds is caught by the same
// comparison (the fast tier's bound is what the check uses as tolerance).
TEST_F(FastTier, AnErrorOfTwiceTheBoundIsDetected) {
  std::mt19937_64 g(9);
  auto c = random_case(g, 2, 40, 16, 3);
  result f = attention(c.q.data(), c.k.data(), c.v.data(), 2, 40, 16, 3);
  matrix<hp> ref = pv::attention(to_matrix(c.q, 2, 16), to_matrix(c.k, 40, 16), to_matrix(c.v, 40, 3));
  for (std::size_t i = 0; i < ref.a.size(); ++i) {
    hp wrong = to_hp(f.value[i]) + hp(3 * f.bound[i]);
    EXPECT_GT(std::fabs(static_cast<double>(wrong - ref.a[i])), f.bound[i]);
  }
}

}  // namespace
}  // namespace reference_fast_fast_test
}  // namespace pv::fast
