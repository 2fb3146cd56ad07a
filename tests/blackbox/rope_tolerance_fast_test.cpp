// The first look of the RoPE laws (blackbox/rope_tolerance_fast.h,
// blackbox/rope_rotated.h, law_run::within_fast): the binary64 tolerance
// within its stated distance of the MPFR one, the fast reference's error
// bound above the error MPFR computes, and a skipped entry one the exact
// judgement would not have recorded.
#include "blackbox/check_run.h"
#include "blackbox/law_run.h"
#include "blackbox/rope_rotated.h"
#include "reference/mp.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace blackbox_rope_tolerance_fast_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv;
using namespace pv::blackbox;

/// Positions of a row: small, structured near powers of two, up to 2^20 + 1.
std::vector<double> positions_of(rng& g, std::size_t na) {
  std::vector<double> p(na);
  for (auto& v : p) {
    const double u = g.uniform();
    v = u < 0.3 ? double(g.range(0, 64)) : u < 0.6 ? std::ldexp(1.0, int(g.range(0, 20))) + double(g.range(0, 1))
                                                  : double(g.range(0, 1 << 20));
  }
  return p;
}

/// Speeds as a rotation law measures them, from the requested layout.
kernel_speeds speeds_of(const rope_layout<hp>& L, const pv_rope_config& c) {
  kernel_speeds ks;
  const std::size_t d = L.head_dim;
  ks.w.assign(L.n_axes, std::vector<double>(d, 0.0));
  ks.partner.resize(d);
  for (std::size_t i = 0; i < d; ++i) ks.partner[i] = i;
  ladder_roundings(L, c, ks);
  for (const auto& p : L.pairs) {
    ks.w[p.axis][p.a] = ks.w[p.axis][p.b] = convert<double>(p.speed);
    ks.partner[p.a] = p.b;
    ks.partner[p.b] = p.a;
  }
  return ks;
}

/// The law's units of a float32 kernel under a declared class ("" for none).
rope_units units_of(const std::string& accuracy) {
  check_run cx;
  if (!accuracy.empty()) cx.accuracy = parse_accuracy(accuracy);
  return rope_law_units<float>(cx);
}

}  // namespace

// Every configuration the mutation suite checks, every declared class, the
// reference's tolerance and the rotation laws': the binary64 figure within
// kRelative of the MPFR one (it is about 12u away at most, so 2^-45 here).
TEST(RopeToleranceFast, WithinItsStatedDistanceOfTheMpfrTolerance) {
  rng g(20261205);
  std::size_t compared = 0;
  for (const auto& rc : mutation_rope_configs())
    for (const std::string acc : {"", "float16", "bfloat16", "float16-accumulation"}) {
      const auto L = reference_layout(rc.c);
      const rope_units u = units_of(acc);
      const kernel_speeds ks = speeds_of(L, rc.c);
      for (const kernel_speeds* k : {static_cast<const kernel_speeds*>(nullptr), &ks}) {
        const rope_tolerance_fast fast(L, rc.c, u, k);
        const std::size_t d = L.head_dim, na = L.n_axes;
        for (int row = 0; row < 6; ++row) {
          std::vector<float> x(d);
          for (auto& v : x) v = float(g.real(-1, 1) * std::pow(10.0, g.real(-3, 3)));
          const auto pos = positions_of(g, na);
          std::vector<double> t(d);
          fast.row(pos.data(), x.data(), t.data());
          const auto exact = k ? rotation_tolerance<float>(*k, pos.data(), x.data(), u)
                               : component_tolerance<float>(L, rc.c, pos.data(), x.data(), u);
          for (std::size_t c = 0; c < d; ++c) {
            const hp diff = abs(convert<hp>(t[c]) - exact[c]);
            EXPECT_LE(diff, exact[c] * hp(0x1p-45))
                << rc.name << " " << (acc.empty() ? "float32" : acc) << (k ? " rotation" : " reference")
                << " component " << c << ": binary64 " << t[c] << ", MPFR " << ref::to_decimal(exact[c], 20);
            EXPECT_LE(rope_tolerance_fast::lower(t[c]), convert<double>(exact[c]));
            ++compared;
          }
        }
      }
    }
  EXPECT_GT(compared, 10000u);
}

// A figure binary64 cannot be trusted with is no lower bound: never used.
TEST(RopeToleranceFast, UntrustedFiguresAreNoLowerBound) {
  EXPECT_LT(rope_tolerance_fast::lower(NAN), 0);
  EXPECT_LT(rope_tolerance_fast::lower(INFINITY), 0);
  EXPECT_EQ(rope_tolerance_fast::lower(0x1p-1000), 0);  // subnormal range: 0, a valid lower bound of t >= 0
  EXPECT_EQ(rope_tolerance_fast::lower(0), 0);
  EXPECT_LT(rope_tolerance_fast::lower(1.0), 1.0);
}

// The fast reference's error_above is above the error MPFR computes for every
// entry, at the default precision and at 64 bits (where MPFR's own roundings
// of angles near 2^20 are far larger than the fast tier's), for outputs a few
// ulps off the reference and for outputs far from it; and it is not vacuous.
TEST(RopeToleranceFast, ErrorAboveBoundsTheErrorMpfrComputes) {
  const unsigned bits = ref::precision_bits();
  rng g(7);
  for (unsigned b : {bits, 64u})
    for (const auto& rc : mutation_rope_configs()) {
      ref::set_precision_bits(b);
      const auto L = reference_layout(rc.c);
      const rope_evaluator<double> evaluate(L, rc, units_of(""));
      const std::size_t d = L.head_dim, na = L.n_axes, n = 5;
      matrix<double> x(n, d);
      for (auto& v : x.a) v = g.real(-2, 2);
      std::vector<double> pos;
      for (std::size_t i = 0; i < n; ++i)
        for (double p : positions_of(g, na)) pos.push_back(p);
      // the kernel's output: the reference rounded to binary64 and nudged (rows 0-2) or scaled (rows 3-4)
      matrix<double> y(n, d);
      {
        const auto ideal = evaluate(x, pos, {});
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t c = 0; c < d; ++c) {
            const double r = convert<double>(ideal.ref(i, c));
            y(i, c) = i < 3 ? r + r * 0x1p-52 * double(g.range(-4, 4)) : r * 1.01;
          }
      }
      std::vector<unsigned char> out(y.a.size() * sizeof(double));
      std::memcpy(out.data(), y.a.data(), out.size());
      const auto R = evaluate(x, pos, out);
      ASSERT_TRUE(R.fast) << rc.name;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t c = 0; c < d; ++c) {
          const hp err = abs(convert<hp>(R.y(i, c)) - R.ref(i, c));
          const double above = R.error_above(i, c);
          EXPECT_GE(hp(above), err) << rc.name << " at " << b << " bits, row " << i << " component " << c;
          // not vacuous: within a relative 2^-30 of the error, or near the MPFR reference's own error
          EXPECT_LE(hp(above), err * (1 + hp(0x1p-30)) + hp(0x1p-80 + std::ldexp(1.0, 12 - int(b)) * (1 << 21)))
              << rc.name << " at " << b << " bits, row " << i << " component " << c;
        }
    }
  ref::set_precision_bits(bits);
}

// Outside the fast tier's range (angles of 2^21 and more) there is no fast
// reference: every entry is then judged in MPFR.
TEST(RopeToleranceFast, NoFastReferenceBeyondItsAngles) {
  const auto rc = rope_configs()[0];
  const auto L = reference_layout(rc.c);
  const rope_evaluator<float> evaluate(L, rc, units_of(""));
  matrix<float> x(1, L.head_dim);
  for (auto& v : x.a) v = 0.5f;
  EXPECT_TRUE(evaluate(x, {1048577.0}, {}).fast);
  const auto far = evaluate(x, {std::ldexp(1.0, 22)}, {});
  EXPECT_FALSE(far.fast);
  EXPECT_EQ(far.error_above(0, 0), INFINITY);
}

// within_fast records what within records: two runs of the same judgements
// (40 cases of 100 entries), one exact throughout, one with the first look
// (enclosures a relative 2^-45 around the exact figures), end with the same
// worst case, largest error and verdict, and the first look skipped most
// entries, but never the first of every eighth case.
TEST(RopeToleranceFast, WithinFastRecordsWhatWithinRecords) {
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    rng g(seed);
    check_run cx;
    law_run exact(cx, "test.law", "float32", "", "a law", "a tolerance");
    law_run fast(cx, "test.law", "float32", "", "a law", "a tolerance");
    const auto none = [] { return std::string(); };
    int skipped = 0, n = 4000;
    for (int e = 0; e < n; ++e) {
      // errors mostly well inside, now and then near the worst so far, and at the end one beyond
      const double bound = std::pow(10.0, g.real(-8, 0));
      const double ratio = e == n - 1 && seed == 4 ? 1.5 : g.uniform() < 0.98 ? g.real(0, 0.5) : g.real(0.4, 0.9);
      const hp err = hp(bound) * hp(ratio), bd = hp(bound);
      const std::string where = "entry " + std::to_string(e);
      const int k = e / 100;
      const bool a = exact.within(k, err, bd, [&] { return where; }, none);
      bool called = false;
      const bool b = fast.within_fast(
          k, convert<double>(err) * (1 + 0x1p-45), convert<double>(bd) * (1 - 0x1p-45),
          [&] {
            called = true;
            return std::pair<hp, hp>(err, bd);
          },
          [&] { return where; }, none);
      skipped += !called;
      if (e % 100 == 0 && k % 8 == 0) EXPECT_TRUE(called) << "the first entry of case " << k << " is judged in MPFR";
      ASSERT_EQ(a, b) << "entry " << e;
      if (!a) break;
    }
    const auto& x = exact.result_ref();
    const auto& y = fast.result_ref();
    EXPECT_EQ(x.worst_error, y.worst_error);
    EXPECT_EQ(x.worst_bound, y.worst_bound);
    EXPECT_EQ(x.worst_where, y.worst_where);
    EXPECT_EQ(x.max_error, y.max_error);
    EXPECT_EQ(x.max_error_bound, y.max_error_bound);
    EXPECT_EQ(x.verdict, y.verdict);
    EXPECT_GT(skipped, n / 2) << "the first look decided too little to be worth it";
  }
}

// A first look that does not enclose what MPFR computes (a fault of the fast
// tier or of an enclosure) fails the law at the first entry of a case, naming
// it as posverify's fault, where it would otherwise pass unseen.
TEST(RopeToleranceFast, AFirstLookThatMpfrContradictsFailsTheLaw) {
  check_run cx;
  law_run L(cx, "test.law", "float32", "", "a law", "a tolerance");
  const auto none = [] { return std::string(); };
  const auto where = [] { return std::string("entry 0"); };
  // an error of 0.5 against a tolerance of 1, its first look claiming 0.25
  EXPECT_FALSE(L.within_fast(0, 0.25, 0.5, [] { return std::pair<hp, hp>(hp(0.5), hp(1)); }, where, none));
  EXPECT_EQ(L.result_ref().verdict, verdict::failed);
  EXPECT_NE(L.result_ref().finding.find("a fault of posverify's reference"), std::string::npos)
      << L.result_ref().finding;
  EXPECT_EQ(L.result_ref().finding.find("tolerance (MPFR's is below it)"), std::string::npos)
      << "the tolerance was right: " << L.result_ref().finding;
  // a tolerance claimed above MPFR's, the error right: the finding names the tolerance
  law_run M(cx, "test.law", "float32", "", "a law", "a tolerance");
  EXPECT_FALSE(M.within_fast(0, 0.5, 2.0, [] { return std::pair<hp, hp>(hp(0.5), hp(1)); }, where, none));
  EXPECT_NE(M.result_ref().finding.find("a fault of posverify's binary64 tolerance"), std::string::npos)
      << M.result_ref().finding;
  // an honest one passes
  law_run N(cx, "test.law", "float32", "", "a law", "a tolerance");
  EXPECT_TRUE(N.within_fast(0, 0.5, 0.75, [] { return std::pair<hp, hp>(hp(0.5), hp(1)); }, where, none));
}

}  // namespace blackbox_rope_tolerance_fast_test
