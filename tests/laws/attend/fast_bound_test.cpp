// The any-order bound in binary64 (laws/attend/fast_bound.h) against the
// same bound by MPFR (problem.h's any_order_mp): never below it, and above it
// by a relative 2^-30 at most, on every feature a problem has (GQA, causal,
// windows, padding, softcap, ALiBi, sinks, an explicit bias with -inf, the
// units of float32, float64, a 16-bit storage class and a float16 p v
// accumulator), at logits far apart (terms of e^{s - m} that underflow), at
// wide rows, and the rows it leaves to MPFR (empty rows, a NaN input) equal
// to MPFR's bit for bit; and the MPFR sample every run takes fails a bound
// below MPFR's.
#include "laws/attend/fast_bound.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace pv::laws::attend {
namespace laws_attend_fast_bound_test {  // this file's names: a unity build compiles several test files as one
namespace {

const double inf = std::numeric_limits<double>::infinity();

/// MPFR's bound at 256 bits (the default precision of a bare hp is about 67
/// bits, at which e^{2D} - 1 of a float64 bound is itself off by 2^-24), the
/// precision restored after.
struct at_256_bits {
  unsigned saved = ref::precision_bits();
  at_256_bits() { ref::set_precision_bits(256); }
  ~at_256_bits() { ref::set_precision_bits(saved); }
};

/// Every entry of F at least M's and at most M's (1 + 2^-30) (2^-1000 added
/// for bounds that are all underflow); `where` names the problem.
void expect_close_above(const problem& P, const bounds& F, const bounds& M, const std::string& where) {
  const hp rel = hp(0x1p-30);
  for (std::size_t e = 0; e < M.out.size(); ++e) {
    const double off = M.out[e] > 0 ? hp(F.out[e] / M.out[e] - 1).convert_to<double>() : 0.0;
    ASSERT_GE(F.out[e], M.out[e]) << where << " entry " << e << " relative " << off;
    ASSERT_LE(F.out[e], M.out[e] * (1 + rel) + hp(0x1p-1000)) << where << " entry " << e << " relative " << off;
  }
  for (std::size_t r = 0; r < M.lse.size(); ++r) {
    const double off = M.lse[r] > 0 ? hp(F.lse[r] / M.lse[r] - 1).convert_to<double>() : 0.0;
    ASSERT_GE(F.lse[r], M.lse[r]) << where << " row " << r << " relative " << off;
    ASSERT_LE(F.lse[r], M.lse[r] * (1 + rel)) << where << " row " << r << " relative " << off;
  }
  (void)P;
}

/// One item and head of n_q queries against n_k keys, inputs 0.
problem shaped(long n_q, long n_k, long d, long d_v) {
  problem P;
  P.n_q = n_q;
  P.n_k = n_k;
  P.d = d;
  P.d_v = d_v;
  P.allocate();
  return P;
}

struct draw {
  explicit draw(std::uint32_t seed) : g(seed) {}
  std::mt19937 g;
  long in(long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(g); }
  double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g); }
  bool coin() { return in(0, 1) == 1; }
};

/// A problem with every feature drawn (each on or off), values in
/// [-amp, amp] rounded to float (exact in binary64, as the laws draw them).
problem random_problem(draw& r, double amp) {
  problem P;
  P.batch = r.in(1, 2);
  P.h_kv = r.in(1, 2);
  P.h_q = P.h_kv * r.in(1, 3);
  P.n_q = r.in(1, 6);
  P.n_k = r.in(1, 40);
  P.d = r.in(1, 48);
  P.d_v = r.in(1, 5);
  P.allocate();
  for (auto* x : {&P.q, &P.k, &P.v})
    for (double& y : *x) y = double(float(r.real(-amp, amp)));
  for (long b = 0; b < P.batch; ++b) {
    P.q_start[std::size_t(b)] = r.in(0, P.n_k);
    P.k_len[std::size_t(b)] = r.in(1, P.n_k);
  }
  P.causal = r.coin();
  if (r.coin()) P.left = r.in(0, 8);
  if (r.coin()) P.right = r.in(0, 8);
  if (r.coin()) P.scale = double(float(r.real(-0.5, 1.5)));
  if (r.coin()) P.softcap = double(float(r.real(0.5, 50)));
  if (r.coin()) {
    P.alibi.resize(std::size_t(P.h_q));
    for (double& a : P.alibi) a = std::ldexp(1.0, -int(r.in(0, 12)));
  }
  if (r.coin()) {
    P.sink.resize(std::size_t(P.h_q));
    for (double& s : P.sink) s = double(float(r.real(-4, 4)));
  }
  if (r.coin()) {
    P.bias_batch = r.coin() ? 1 : P.batch;
    P.bias.resize(std::size_t(P.bias_batch * P.n_q * P.n_k));
    for (double& x : P.bias) x = r.in(0, 4) == 0 ? -inf : double(r.in(-16, 16)) / 4;
  }
  return P;
}

/// The units of float32, float64, a bfloat16 storage class and a float16
/// p v accumulator, made after at_256_bits (an hp keeps the precision it was
/// made with, and passes it on to what is computed from it).
std::vector<units> four_units() {
  return {units{hp(0x1p-24), hp(0x1p-126)}, units{hp(0x1p-53), hp(0x1p-1022)},
          units{hp(0x1p-24), hp(0x1p-126), hp(0x1p-8), hp(0x1p-133)},
          units{hp(0x1p-24), hp(0x1p-126), hp(0x1p-11), hp(0x1p-24), hp(0x1p-11), hp(0x1p-24)}};
}

TEST(AttendFastBound, IsMpfrsBoundRoundedUpOnEveryFeature) {
  const at_256_bits bits;
  draw r(20261206);
  for (int k = 0; k < 240; ++k) {
    const double amp = k % 3 == 0 ? 1.0 : (k % 3 == 1 ? 4.0 : 16.0);
    const problem P = random_problem(r, amp);
    for (const units& U : four_units())
      for (empty_rows conv : {empty_rows::zeros, empty_rows::mean}) {
        const bounds F = any_order(P, conv, U), M = any_order_mp(P, conv, U);
        expect_close_above(P, F, M, "problem " + std::to_string(k));
      }
  }
}

// Logits hundreds apart: the small terms e^{s - m} underflow in binary64
// (below 2^-1074), which the bound covers absolutely; and a row set.
TEST(AttendFastBound, HoldsWhereTermsUnderflowAndOnARowSet) {
  const at_256_bits bits;
  problem P = shaped(3, 9, 2, 2);
  for (long j = 0; j < P.n_k; ++j) {
    P.k[P.ki(0, j, 0, 0)] = double(j) * 40;  // logits 0, 40, ..., 320 (x 2 q / sqrt 2)
    P.k[P.ki(0, j, 0, 1)] = -1;
    P.v[P.vi(0, j, 0, 0)] = std::ldexp(1.0, -int(j) * 100);  // down to 2^-800
    P.v[P.vi(0, j, 0, 1)] = j % 2 ? 3.0 : -0.5;
  }
  for (long i = 0; i < P.n_q; ++i) {
    P.q[P.qi(0, i, 0, 0)] = double(i + 1) * 2;
    P.q[P.qi(0, i, 0, 1)] = 0.25;
  }
  for (const units& U : four_units()) expect_close_above(P, any_order(P, empty_rows::zeros, U), any_order_mp(P, empty_rows::zeros, U), "far logits");
  row_set rows(P.lse_size(), 0);
  rows[1] = 1;
  const bounds F = any_order(P, empty_rows::zeros, four_units()[0], &rows), M = any_order_mp(P, empty_rows::zeros, four_units()[0], &rows);
  expect_close_above(P, F, M, "row set");
  EXPECT_EQ(F.lse[0], hp(0)) << "a row outside the set is left 0";
}

// A wide row (a thousand keys of 128 components): the gammas of the dot
// product and of the sum over keys at their size.
TEST(AttendFastBound, HoldsOnAWideRow) {
  const at_256_bits bits;
  draw r(7);
  problem P = shaped(2, 1024, 128, 3);
  for (auto* x : {&P.q, &P.k, &P.v})
    for (double& y : *x) y = double(float(r.real(-1, 1)));
  P.softcap = 30;
  P.sink = {1.5};
  for (const units& U : four_units())
    expect_close_above(P, any_order(P, empty_rows::zeros, U), any_order_mp(P, empty_rows::zeros, U), "wide row");
}

// Rows the argument does not cover are MPFR's, bit for bit: an empty row
// (the mean of V), a row whose visible value is NaN; the other rows stay
// the binary64 bound's. A wrong reading (the diagnosis) is MPFR's too.
TEST(AttendFastBound, LeavesEmptyRowsNonFiniteInputsAndWrongReadingsToMpfr) {
  const at_256_bits bits;
  problem P = shaped(3, 4, 2, 2);
  P.causal = true;
  P.q_start = {-1};  // query 0 at position -1 sees no key: an empty row
  for (std::size_t e = 0; e < P.k.size(); ++e) P.k[e] = double(e % 3) - 1;
  for (std::size_t e = 0; e < P.v.size(); ++e) P.v[e] = double(e) / 4;
  for (std::size_t e = 0; e < P.q.size(); ++e) P.q[e] = 0.5 + double(e);
  P.v[P.vi(0, 1, 0, 1)] = std::numeric_limits<double>::quiet_NaN();  // key 1: seen by row 2 (position 1) only
  const bounds F = any_order(P, empty_rows::mean, four_units()[0]), M = any_order_mp(P, empty_rows::mean, four_units()[0]);
  const auto same = [](const hp& a, const hp& b) { return (isnan(a) && isnan(b)) || a == b; };
  for (long c = 0; c < P.d_v; ++c) {
    EXPECT_TRUE(same(F.out[P.oi(0, 0, 0, c)], M.out[P.oi(0, 0, 0, c)])) << "the empty row";
    EXPECT_TRUE(same(F.out[P.oi(0, 2, 0, c)], M.out[P.oi(0, 2, 0, c)])) << "the row that sees the NaN";
  }
  EXPECT_TRUE(same(F.lse[0], M.lse[0]));
  EXPECT_TRUE(same(F.lse[2], M.lse[2]));
  EXPECT_GE(F.out[P.oi(0, 1, 0, 1)], M.out[P.oi(0, 1, 0, 1)]);
  EXPECT_NE(F.out[P.oi(0, 1, 0, 1)], M.out[P.oi(0, 1, 0, 1)]) << "row 1 is the binary64 bound's (column 0: its one value is 0)";
  variant top_left;
  top_left.top_left = true;
  const bounds Fw = any_order(P, empty_rows::mean, four_units()[0], nullptr, top_left),
               Mw = any_order_mp(P, empty_rows::mean, four_units()[0], nullptr, top_left);
  for (std::size_t e = 0; e < Mw.out.size(); ++e)
    EXPECT_TRUE(same(Fw.out[e], Mw.out[e])) << "the wrong reading, entry " << e;
}

// Where an output is exactly 0 the bound is MPFR's exactly, not 2^-1070
// above it (a bound of 0 asks for exact agreement): a row that sees the sink
// alone (its keys masked by the bias), and a column of values all 0.
TEST(AttendFastBound, IsMpfrsExactlyWhereTheOutputIsExactlyZero) {
  const at_256_bits bits;
  problem P = shaped(2, 3, 2, 2);
  for (std::size_t e = 0; e < P.q.size(); ++e) P.q[e] = 0.25 * double(e + 1);
  for (std::size_t e = 0; e < P.k.size(); ++e) P.k[e] = 1 - 0.5 * double(e);
  for (long j = 0; j < P.n_k; ++j) P.v[P.vi(0, j, 0, 0)] = double(j) - 1.5;  // column 1 stays 0
  P.sink = {0.75};
  P.bias_batch = 1;
  P.bias.assign(std::size_t(P.n_q * P.n_k), 0.0);
  for (long j = 0; j < P.n_k; ++j) P.bias[P.bi(0, 0, j)] = -inf;  // row 0: the sink alone
  for (const units& U : four_units()) {
    const bounds F = any_order(P, empty_rows::zeros, U), M = any_order_mp(P, empty_rows::zeros, U);
    for (long c = 0; c < P.d_v; ++c) EXPECT_EQ(F.out[P.oi(0, 0, 0, c)], M.out[P.oi(0, 0, 0, c)]) << "the sink alone";
    EXPECT_EQ(F.out[P.oi(0, 1, 0, 1)], M.out[P.oi(0, 1, 0, 1)]) << "a column of zeros";
    EXPECT_GT(F.out[P.oi(0, 1, 0, 0)], M.out[P.oi(0, 1, 0, 0)]) << "the other column is the binary64 bound's";
  }
}

// MPFR's sample fails a run whose binary64 bound is below MPFR's: a bound
// lowered by 2^-20 is reported, as a fault of posverify's, by one call in 16.
TEST(AttendFastBound, MpfrsSampleRejectsABoundBelowMpfrs) {
  const at_256_bits bits;
  draw r(11);
  problem P = random_problem(r, 1.0);
  P.sink.clear();
  const units U = four_units()[0];
  bounds B = any_order(P, empty_rows::zeros, U);
  for (hp& x : B.out) x *= 1 - hp(0x1p-20);
  const row_set none(P.lse_size(), 0);
  int thrown = 0;
  for (int k = 0; k < 16; ++k) {
    try {
      attend_fast_bound::detail::sample(P, empty_rows::zeros, U, nullptr, none, B);
    } catch (const std::logic_error& e) {
      ++thrown;
      EXPECT_NE(std::string(e.what()).find("posverify fault"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(thrown, 1);
}

}  // namespace
}  // namespace laws_attend_fast_bound_test
}  // namespace pv::laws::attend
