// The attend problem, its exact reference and its any-order bound
// (laws/attend/problem.h): closed forms for one key, sinks, softcap, ALiBi,
// GQA's repeat mapping, masks and the empty-row conventions; the bound holds
// for a float evaluation and is not vacuous.
#include "laws/attend/fast_bound.h"
#include "laws/attend/problem.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace pv::laws::attend {
namespace laws_attend_problem_test {  // this file's names: a unity build compiles several test files as one
namespace {

problem one(long n_q, long n_k, long d, long d_v) {
  problem P;
  P.n_q = n_q;
  P.n_k = n_k;
  P.d = d;
  P.d_v = d_v;
  P.allocate();
  return P;
}

double at(const std::vector<hp>& v, std::size_t i) { return v[i].convert_to<double>(); }

TEST(AttendProblem, OneKeyGivesItsValueAndItsLogit) {
  problem P = one(1, 1, 2, 3);
  P.q = {1, 2};
  P.k = {3, -1};
  P.v = {0.5, -2, 7};
  const exact E = reference(P, empty_rows::zeros);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(at(E.out, std::size_t(c)), P.v[std::size_t(c)]);
  EXPECT_NEAR(at(E.lse, 0), (3 - 2) / std::sqrt(2.0), 1e-15) << "ln e^s = s, s = q.k / sqrt(d)";
}

TEST(AttendProblem, ASinkCountsInTheDenominatorOnly) {
  problem P = one(1, 1, 1, 1);  // q = k = 0: logit 0
  P.v = {6};
  P.sink = {0.0};
  const exact E = reference(P, empty_rows::zeros);
  EXPECT_NEAR(at(E.out, 0), 3.0, 1e-30) << "e^0 / (e^0 + e^0) of v";
  EXPECT_NEAR(at(E.lse, 0), std::log(2.0), 1e-15);
  P.sink = {std::log(5.0)};
  EXPECT_NEAR(at(reference(P, empty_rows::zeros).out, 0), 1.0, 1e-15) << "1 / (1 + 5) of 6";
}

TEST(AttendProblem, SoftcapAndScaleAndAlibiEnterTheLogit) {
  problem P = one(1, 2, 1, 1);
  P.q = {2};
  P.k = {3, 0};  // logits x = 6 s and 0
  P.v = {1, 0};
  P.scale = 0.5;  // x = 3
  P.softcap = 2;  // s = 2 tanh(3/2)
  const double s = 2 * std::tanh(1.5);
  EXPECT_NEAR(at(reference(P, empty_rows::zeros).out, 0), std::exp(s) / (std::exp(s) + 1), 1e-15);
  P.softcap = 0;
  P.alibi = {0.25};
  P.q_start = {1};  // keys at distance 1 and 0: biases -0.25 and 0
  EXPECT_NEAR(at(reference(P, empty_rows::zeros).out, 0), std::exp(2.75) / (std::exp(2.75) + 1), 1e-15);
}

// the wrong readings the diagnosis tries (variant): each changes the logit of
// key 0 as the bug it names does, and nothing else
TEST(AttendProblem, TheScaleSoftcapAndAlibiVariantsComputeTheirBugs) {
  problem P = one(1, 2, 4, 1);
  P.q = {1, 0, 0, 0};
  P.k = {3, 0, 0, 0, 0, 0, 0, 0};  // q.k_0 = 3, q.k_1 = 0
  P.v = {1, 0};
  P.scale = 1.5;  // x_0 = 4.5
  P.softcap = 2;
  P.alibi = {0.5};
  P.q_start = {1};  // biases -0.5 (key 0) and 0 (key 1)
  const auto p0 = [&](const variant& w) { return at(reference(P, empty_rows::zeros, w).out, 0); };
  const auto weight = [](double s0) { return std::exp(s0) / (std::exp(s0) + 1); };
  EXPECT_NEAR(p0({}), weight(2 * std::tanh(2.25) - 0.5), 1e-15) << "c tanh(x/c) + bias";
  EXPECT_NEAR(p0({.no_scale = true}), weight(2 * std::tanh(0.75) - 0.5), 1e-15) << "x = q.k / sqrt(4)";
  EXPECT_NEAR(p0({.no_alibi = true}), weight(2 * std::tanh(2.25)), 1e-15);
  EXPECT_NEAR(p0({.softcap_swish = true}), weight(2.25 * std::tanh(2.25) - 0.5), 1e-15) << "(x/c) tanh(x/c)";
  EXPECT_NEAR(p0({.cap_after_bias = true}), weight(2 * std::tanh(2.0)), 1e-15) << "c tanh((x + bias)/c)";
  // (key 1: x = 0 and no bias, logit 0 in every reading) without a cap the
  // cap's two bugs change nothing
  P.softcap = 0;
  EXPECT_EQ(p0({.softcap_swish = true}), p0({})) << "no cap, no cap's formula";
  EXPECT_EQ(p0({.cap_after_bias = true}), p0({}));
}

// The decode swap (pytorch PR 186434) reads query head g (h_q / h_kv) + r of
// item b from item b + r, head g, wrapping past the last item; only at n_q = 1
// with GQA.
TEST(AttendProblem, TheDecodeSwapReadsTheQueryOfItemBPlusR) {
  problem P;
  P.batch = 3, P.h_q = 4, P.h_kv = 2, P.n_q = 1, P.n_k = 2, P.d = 2, P.d_v = 1;
  P.allocate();
  const variant sw{.decode_swap = true};
  EXPECT_EQ(query_at(P, 0, 0, 0, sw), P.qi(0, 0, 0, 0));
  EXPECT_EQ(query_at(P, 0, 0, 1, sw), P.qi(1, 0, 0, 0)) << "g 0, r 1: item 1, head 0";
  EXPECT_EQ(query_at(P, 1, 0, 2, sw), P.qi(1, 0, 1, 0)) << "g 1, r 0";
  EXPECT_EQ(query_at(P, 2, 0, 3, sw), P.qi(0, 0, 1, 0)) << "g 1, r 1: item 3 wraps to 0";
  EXPECT_EQ(query_at(P, 2, 0, 3), P.qi(2, 0, 3, 0)) << "no bug, no swap";
  P.n_q = 2;
  P.allocate();
  EXPECT_EQ(query_at(P, 2, 1, 3, sw), P.qi(2, 1, 3, 0)) << "n_q = 2: no swap";
}

// attend.models computes a sample of rows: each the same as in the whole
// computation, the others left 0; exact_dot gives hp arithmetic's values
TEST(AttendProblem, ARowSetComputesItsRowsAsTheWholeComputationDoes) {
  problem P = one(3, 5, 4, 2);
  P.h_q = 2;
  P.allocate();
  for (std::size_t i = 0; i < P.q.size(); ++i) P.q[i] = std::sin(double(i) + 0.25) * 3;
  for (std::size_t i = 0; i < P.k.size(); ++i) P.k[i] = std::cos(double(i) * 0.9);
  for (std::size_t i = 0; i < P.v.size(); ++i) P.v[i] = double(i % 7) - 3;
  P.causal = true;
  P.q_start = {2};
  P.lse = true;
  row_set rows(P.lse_size(), 0);
  rows[P.li(0, 1, 2)] = rows[P.li(0, 0, 0)] = 1;
  const units U{hp(0x1p-24), hp(0x1p-126)};
  const exact E = reference(P, empty_rows::zeros), Es = reference(P, empty_rows::zeros, {}, &rows);
  const bounds B = any_order(P, empty_rows::zeros, U), Bs = any_order(P, empty_rows::zeros, U, &rows);
  for (long h = 0; h < 2; ++h)
    for (long i = 0; i < 3; ++i) {
      const std::size_t li = P.li(0, h, i);
      const bool in = rows[li] != 0;
      EXPECT_EQ(Es.lse[li], in ? E.lse[li] : hp(0)) << h << " " << i;
      EXPECT_EQ(Bs.lse[li], in ? B.lse[li] : hp(0)) << h << " " << i;
      for (long c = 0; c < 2; ++c) {
        EXPECT_EQ(Es.out[P.oi(0, i, h, c)], in ? E.out[P.oi(0, i, h, c)] : hp(0));
        EXPECT_EQ(Bs.out[P.oi(0, i, h, c)], in ? B.out[P.oi(0, i, h, c)] : hp(0));
      }
    }
  exact_dot qk;
  const double a[] = {1.5, -0x1p-60, 3, 1e20}, b[] = {0.1, 7, -1.25, 1e-20};
  qk(a, b, 4);
  hp dot = 0, ab = 0;
  for (int l = 0; l < 4; ++l) {
    const hp t = hp(a[l]) * hp(b[l]);
    dot += t;
    ab += abs(t);
  }
  EXPECT_EQ(qk.dot, dot);
  EXPECT_EQ(qk.ab, ab);
}

TEST(AttendProblem, GqaRepeatsEachKvHead) {
  problem P;
  P.h_q = 4;
  P.h_kv = 2;
  EXPECT_EQ(kv_head(P, 0), 0);
  EXPECT_EQ(kv_head(P, 1), 0);
  EXPECT_EQ(kv_head(P, 2), 1);
  EXPECT_EQ(kv_head(P, 3), 1);
  EXPECT_EQ(kv_head(P, 1, variant{.tile = true}), 1) << "tile: h mod h_kv";
}

TEST(AttendProblem, MasksAlignAtQStartAndWindowsAreInclusive) {
  problem P = one(2, 6, 1, 1);
  P.causal = true;
  P.q_start = {4};  // bottom-right: n_k - n_q
  EXPECT_TRUE(visible(P, 0, 0, 4));
  EXPECT_FALSE(visible(P, 0, 0, 5));
  EXPECT_TRUE(visible(P, 0, 1, 5));
  EXPECT_FALSE(visible(P, 0, 0, 1, variant{.top_left = true})) << "top-left: query 0 at position 0";
  P.left = 2;  // keys p-2 .. p
  EXPECT_FALSE(visible(P, 0, 0, 1));
  EXPECT_TRUE(visible(P, 0, 0, 2));
  EXPECT_TRUE(visible(P, 0, 0, 1, variant{.window_extra = 1}));
  P.k_len = {3};
  EXPECT_FALSE(visible(P, 0, 0, 3)) << "padding";
  EXPECT_TRUE(visible(P, 0, 0, 3, variant{.reads_padding = true}));
}

TEST(AttendProblem, EmptyRowsFollowTheDeclaredConvention) {
  problem P = one(1, 3, 1, 1);
  P.v = {1, 2, 6};
  P.causal = true;
  P.q_start = {-1};  // the query sits before every key
  ASSERT_TRUE(any_empty_row(P));
  EXPECT_EQ(at(reference(P, empty_rows::zeros).out, 0), 0.0);
  EXPECT_TRUE(std::isnan(at(reference(P, empty_rows::nan).out, 0)));
  EXPECT_EQ(at(reference(P, empty_rows::mean).out, 0), 3.0);
  const exact E = reference(P, empty_rows::zeros);
  EXPECT_TRUE(E.empty[0]);
  EXPECT_EQ(at(E.lse, 0), -std::numeric_limits<double>::infinity());
  P.sink = {0.0};
  EXPECT_FALSE(any_empty_row(P)) << "a sink alone: output 0, lse = sink";
  EXPECT_EQ(at(reference(P, empty_rows::nan).out, 0), 0.0);
}

TEST(AttendProblem, TheBoundHoldsForAFloatEvaluationAndIsNotVacuous) {
  problem P = one(3, 5, 4, 2);
  P.h_q = 2;
  P.h_kv = 1;
  P.allocate();
  P.softcap = 3;
  P.alibi = {0.5, 0.125};
  P.sink = {1.0, -1.0};
  P.causal = true;
  P.q_start = {2};
  // an explicit bias of quarters (exact in float), one masked key
  P.bias_batch = 1;
  P.bias.resize(std::size_t(P.n_q * P.n_k));
  for (std::size_t e = 0; e < P.bias.size(); ++e) P.bias[e] = double(long(e * 7 % 11) - 5) / 4;
  P.bias[1] = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < P.q.size(); ++i) P.q[i] = double(float(std::sin(double(i) + 1) * 3));
  for (std::size_t i = 0; i < P.k.size(); ++i) P.k[i] = double(float(std::cos(double(i) * 1.7) * 3));
  for (std::size_t i = 0; i < P.v.size(); ++i) P.v[i] = double(float(std::sin(double(i) * 0.3) * 5));
  const exact E = reference(P, empty_rows::zeros);
  const hp u = hp(std::ldexp(1.0, -24)), mu = hp(std::numeric_limits<float>::min());
  const bounds B = any_order(P, empty_rows::zeros, u, mu);
  // the textbook evaluation in float: max-subtracted, left to right
  for (long h = 0; h < P.h_q; ++h)
    for (long i = 0; i < P.n_q; ++i) {
      float m = float(P.sink[std::size_t(h)]);
      std::vector<float> s(std::size_t(P.n_k), -INFINITY);
      for (long j = 0; j <= 2 + i && j < P.n_k; ++j) {
        if (P.bias[P.bi(0, i, j)] == -INFINITY) continue;
        float dot = 0;
        for (long l = 0; l < P.d; ++l) dot += float(P.q[P.qi(0, i, h, l)]) * float(P.k[P.ki(0, j, 0, l)]);
        float x = dot * (1.0f / std::sqrt(4.0f));
        x = 3.0f * std::tanh(x / 3.0f) + float(P.alibi[std::size_t(h)]) * float(j - (2 + i));
        x += float(P.bias[P.bi(0, i, j)]);
        s[std::size_t(j)] = x;
        m = std::max(m, x);
      }
      float z = std::exp(float(P.sink[std::size_t(h)]) - m);
      for (float& x : s) z += (x = std::exp(x - m));
      for (long c = 0; c < P.d_v; ++c) {
        float o = 0;
        for (long j = 0; j < P.n_k; ++j) o += s[std::size_t(j)] * float(P.v[P.vi(0, j, 0, c)]);
        o /= z;
        const std::size_t e = P.oi(0, i, h, c);
        EXPECT_LE(abs(hp(o) - E.out[e]), B.out[e]) << "entry " << e;
        EXPECT_LT(B.out[e], hp(1e-4)) << "not vacuous";
        EXPECT_GT(B.out[e], hp(0));
      }
      EXPECT_LE(abs(hp(double(m) + std::log(double(z))) - E.lse[P.li(0, h, i)]), B.lse[P.li(0, h, i)]);
    }
}

// The file comment's formulas written plainly with hp operators (a temporary
// per operation, as the reference was written before it computed in place):
// the exact output and lse of row (b, i, h) and its bound. `sinks` as
// reference() (the variant may drop them) or any_order() (it counts them).
struct plain_row {
  std::vector<hp> out, bout;
  hp lse, blse;
};

plain_row plain(const problem& P, long b, long i, long h, const variant& w, const units& U, bool sinks) {
  const hp sc = w.no_scale ? hp(hp(1) / sqrt(hp(double(P.d)))) : scale_of(P), c = hp(P.softcap);
  const long g = kv_head(P, h, w), p = P.q_start[std::size_t(b)] + i;
  std::vector<long> keys;
  std::vector<hp> xs, ts, bs, ss, as, betas;
  for (long j = 0; j < P.n_k; ++j) {
    if (!visible(P, b, i, j, w)) continue;
    hp dot = 0, ab = 0;
    for (long l = 0; l < P.d; ++l) {
      const hp t = hp(P.q[query_at(P, b, i, h, w) + std::size_t(l)]) * hp(P.k[P.ki(b, j, g, l)]);
      dot += t;
      ab += abs(t);
    }
    const hp x = sc * dot;
    const hp bias = P.alibi.empty() || w.no_alibi ? hp(0) : hp(hp(P.alibi[std::size_t(h)]) * hp(double(j - p)));
    const double beta = P.bias.empty() ? 0.0 : P.bias[bias_at(P, b, i, j, w)];
    const bool capped = P.softcap > 0 && !w.no_softcap, inside = capped && w.cap_after_bias,
               beta_inside = capped && w.mask_before_cap && !P.bias.empty();
    const hp t = !capped           ? x
                 : w.softcap_swish ? hp(x / c * tanh(x / c))
                 : inside || beta_inside
                     ? hp(c * tanh(hp(hp(inside ? hp(x + bias) : x) + hp(beta_inside ? beta : 0.0)) / c))
                     : hp(c * tanh(x / c));
    keys.push_back(j);
    xs.push_back(x);
    ts.push_back(t);
    bs.push_back(bias);
    const hp s = inside ? t : hp(t + bias);
    ss.push_back(P.bias.empty() || beta_inside ? s : hp(s + hp(beta)));
    betas.push_back(hp(std::isfinite(beta) ? std::fabs(beta) : 0.0));
    as.push_back(abs(sc) * ab);
  }
  plain_row R;
  const hp sink = sinks ? hp(P.sink[std::size_t(h)]) : hp(0);
  hp m = sinks ? sink : ss[0];
  for (const hp& s : ss) m = s > m ? s : m;
  hp z = sinks ? hp(exp(sink - m)) : hp(0);
  std::vector<hp> e;
  for (const hp& s : ss) z += e.emplace_back(exp(s - m));
  R.lse = m + log(z);
  const hp &u = U.u, &mu = U.mu;
  const long n = P.n_k + 1;
  const hp gs = (1 + U.us) * (1 + U.us) - 1, gd = gamma_n(P.d + 3, u) * (1 + gs) + gs,
           gn = gs + gamma_n(4 * n + 4, u) * (1 + gs);
  hp D = sinks ? hp(3 * u * abs(sink) + u * abs(sink - m) + 2 * u) : hp(0);
  for (std::size_t t = 0; t < keys.size(); ++t) {
    hp ej = gd * as[t];
    if (P.softcap > 0) ej += u * abs(xs[t]) + 5 * u * abs(ts[t]) + U.us * (abs(xs[t]) + 2 * abs(ts[t]));
    if (!P.alibi.empty()) ej += 3 * u * abs(bs[t]) + u * abs(ss[t]) + U.us * (abs(bs[t]) + abs(ss[t]));
    if (!P.bias.empty()) ej += 3 * u * betas[t] + u * abs(ss[t]) + U.us * (betas[t] + abs(ss[t]));
    const hp Dj = ej + 2 * u * abs(ss[t]) + u * abs(ss[t] - m) + 2 * u;
    if (D < Dj) D = Dj;
  }
  const hp e2 = exp(2 * D), rel = (e2 - 1) + gn * e2;
  for (long cc = 0; cc < P.d_v; ++cc) {
    hp o = 0, S = 0, vmax = 0;
    for (std::size_t t = 0; t < keys.size(); ++t) {
      const hp v = hp(P.v[P.vi(b, keys[t], g, cc)]);
      o += e[t] * v;
      S += e[t] * abs(v);
      if (vmax < abs(v)) vmax = abs(v);
    }
    R.out.push_back(o / z);
    R.bout.push_back(rel * (S / z) + underflow_term(n, U, vmax));
  }
  R.blse = D + gn + hp(double(n)) * mu + 2 * u * (abs(R.lse) + abs(m)) + u;
  return R;
}

// reference(), any_order_mp() and reference_and_bound_mp() compute in place
// (mp(): one MPFR call per hp operator, a row's logits and exponentials once);
// their values are the plain formulas' bit for bit, under GQA, causal, a
// window, softcap, ALiBi, an explicit bias of one per item and sinks, in the
// problem's reading and in wrong readings (a swish cap, the cap after the
// ALiBi bias, no scale, the sinks dropped, whose bound still counts them, the
// explicit bias before the cap, item 0's bias for every item), with a
// storage class; and without the explicit bias as before.
TEST(AttendProblem, TheInPlaceRowsAreThePlainFormulasBitForBit) {
  problem P = one(4, 7, 3, 2);
  P.batch = 2;
  P.h_q = 4;
  P.h_kv = 2;
  P.allocate();
  P.causal = true;
  P.q_start = {3, 1};
  P.left = 4;
  P.softcap = 2.5;
  P.scale = 0.7;
  P.alibi = {0.5, -0.25, 0.125, 1.0 / 3};
  P.sink = {0.3, -2.0, 1.5, 0.0};
  P.lse = true;
  for (std::size_t i = 0; i < P.q.size(); ++i) P.q[i] = std::sin(double(i) + 0.5) * 2;
  for (std::size_t i = 0; i < P.k.size(); ++i) P.k[i] = std::cos(double(i) * 1.3) * 2;
  for (std::size_t i = 0; i < P.v.size(); ++i) P.v[i] = std::sin(double(i) * 0.7) * 3;
  const units U{hp(0x1p-24), hp(0x1p-126), hp(0x1p-11), hp(0x1p-24)};
  std::vector<variant> ws(7);
  ws[1].softcap_swish = true;
  ws[2].cap_after_bias = true;
  ws[3].no_scale = true;
  ws[4].no_sinks = true;
  ws[5].mask_before_cap = true;
  ws[6].bias_item0 = true;
  const problem without = P;
  P.bias_batch = 2;
  P.bias.resize(std::size_t(2 * P.n_q * P.n_k));
  for (std::size_t e = 0; e < P.bias.size(); ++e)
    P.bias[e] = e % 5 == 2 ? -std::numeric_limits<double>::infinity() : std::cos(double(e)) * 3;
  for (const problem* Q : {&without, static_cast<const problem*>(&P)})
    for (std::size_t k = 0; k < ws.size(); ++k) {
      const problem& R = *Q;
      const variant& w = ws[k];
      const exact E = reference(R, empty_rows::zeros, w);
      const bounds B = any_order_mp(R, empty_rows::zeros, U, nullptr, w);
      const auto [Ef, Bf] = reference_and_bound_mp(R, empty_rows::zeros, U, w);
      for (long b = 0; b < R.batch; ++b)
        for (long h = 0; h < R.h_q; ++h)
          for (long i = 0; i < R.n_q; ++i) {
            const plain_row want = plain(R, b, i, h, w, U, !w.no_sinks), bound = plain(R, b, i, h, w, U, true);
            const std::size_t li = R.li(b, h, i);
            EXPECT_EQ(E.lse[li], want.lse) << "variant " << k << " row " << li;
            EXPECT_EQ(B.lse[li], bound.blse) << "variant " << k << " row " << li;
            EXPECT_EQ(Ef.lse[li], E.lse[li]);
            EXPECT_EQ(Bf.lse[li], B.lse[li]);
            for (long c = 0; c < R.d_v; ++c) {
              const std::size_t o = R.oi(b, i, h, c);
              EXPECT_EQ(E.out[o], want.out[std::size_t(c)]) << "variant " << k << " entry " << o;
              EXPECT_EQ(B.out[o], bound.bout[std::size_t(c)]) << "variant " << k << " entry " << o;
              EXPECT_EQ(Ef.out[o], E.out[o]);
              EXPECT_EQ(Bf.out[o], B.out[o]);
            }
          }
    }
}

// float16 storage (a 16-bit wire): inputs already float16, float arithmetic,
// the output rounded to float16. The storage terms are what admits it: the
// float32 bound alone does not, and without storage the bound is unchanged.
TEST(AttendProblem, StorageCountsTheOutputRoundedToFloat16AndNothingWithoutIt) {
  problem P = one(3, 6, 8, 3);
  for (std::size_t i = 0; i < P.q.size(); ++i) P.q[i] = double(_Float16(std::sin(double(i) + 1) * 2));
  for (std::size_t i = 0; i < P.k.size(); ++i) P.k[i] = double(_Float16(std::cos(double(i) * 1.7) * 2));
  for (std::size_t i = 0; i < P.v.size(); ++i) P.v[i] = double(_Float16(std::sin(double(i) * 0.3) * 5));
  P.v[0] = double(_Float16(3e-6));  // a value among float16's subnormals
  const exact E = reference(P, empty_rows::zeros);
  const hp u = hp(std::ldexp(1.0, -24)), mu = hp(std::numeric_limits<float>::min());
  const bounds B32 = any_order(P, empty_rows::zeros, u, mu);
  const bounds B0 = any_order(P, empty_rows::zeros, units{u, mu});
  const bounds B16 = any_order(P, empty_rows::zeros, units{u, mu, hp(std::ldexp(1.0, -11)), hp(std::ldexp(1.0, -24))});
  bool needs_storage = false;
  for (std::size_t e = 0; e < E.out.size(); ++e) {
    EXPECT_EQ(B0.out[e], B32.out[e]) << "no storage: the float32 bound, bit for bit";
    const hp stored = hp(double(_Float16(double(E.out[e]))));
    const hp err = abs(stored - E.out[e]);
    EXPECT_LE(err, B16.out[e]) << "entry " << e;
    EXPECT_LT(B16.out[e], hp(5.0 / 64)) << "not vacuous: below 1/64 of max |v|";
    needs_storage = needs_storage || err > B32.out[e];
  }
  EXPECT_TRUE(needs_storage) << "the float32 bound alone admits a float16 output: the test would prove nothing";
  for (std::size_t e = 0; e < E.lse.size(); ++e) EXPECT_GE(B16.lse[e], B32.lse[e]);
}

}  // namespace
}  // namespace laws_attend_problem_test
}  // namespace pv::laws::attend
