// The attend.* laws written once (laws/attend/): what each builds from a
// problem (the repeated heads, the changed keys, the square causal call, the
// poisoned padding and the items alone, the support probe, the halves of a
// cut, the values near the format's largest, one item or KV head changed,
// a prefill and its decoding steps against a growing cache, the queries and
// the values scaled by powers of two, each item alone and the batch repeated
// to eight items)
// and how each
// judges, each shown to fail on the error it is there for.
#include "laws/attend/batch_invariance.h"
#include "laws/attend/cache.h"
#include "laws/attend/causal_prefix.h"
#include "laws/attend/convex_hull.h"
#include "laws/attend/decode_rows.h"
#include "laws/attend/fast_bound.h"
#include "laws/attend/gqa_repeat.h"
#include "laws/attend/homogeneity.h"
#include "laws/attend/independence.h"
#include "laws/attend/lse_merge.h"
#include "laws/attend/packing.h"
#include "laws/attend/padding.h"
#include "laws/attend/permutation.h"
#include "laws/attend/reference.h"
#include "laws/attend/self_merge.h"
#include "laws/attend/sink_as_key.h"
#include "laws/attend/softcap_saturation.h"
#include "laws/attend/support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

namespace pv::laws {
namespace laws_attend_laws_test {  // this file's names: a unity build compiles several test files as one
namespace {

using attend::empty_rows;
using attend::problem;

problem drawn(long batch, long h_q, long h_kv, long n_q, long n_k, long d, long d_v) {
  problem P;
  P.batch = batch;
  P.h_q = h_q;
  P.h_kv = h_kv;
  P.n_q = n_q;
  P.n_k = n_k;
  P.d = d;
  P.d_v = d_v;
  P.allocate();
  for (std::size_t i = 0; i < P.q.size(); ++i) P.q[i] = std::sin(double(i) + 0.5);
  for (std::size_t i = 0; i < P.k.size(); ++i) P.k[i] = std::cos(double(i) * 1.3);
  for (std::size_t i = 0; i < P.v.size(); ++i) P.v[i] = std::sin(double(i) * 0.7) * 4;
  return P;
}

std::vector<double> doubles(const std::vector<hp>& v) {
  std::vector<double> d;
  for (const hp& x : v) d.push_back(x.convert_to<double>());
  return d;
}

// The exact output lies in the hull; an infinity, or a value outside the
// hull by more than B, does not; the unnormalised sum of the worst row is
// what a float16 accumulator would have had to hold.
TEST(AttendLaws, ConvexHullHoldsForTheExactOutputAndNotForAnOverflow) {
  problem P = drawn(1, 2, 1, 3, 9, 4, 2);
  P.sink = {0.5, -2.0};
  const double M = attend_convex_hull::magnitude(P, 65504, 3.4028234663852886e38);
  EXPECT_EQ(M, 65504 / 2.0) << "float16 storage, float32 arithmetic: F / 2";
  EXPECT_EQ(attend_convex_hull::magnitude(P, 3.4028234663852886e38, 3.4028234663852886e38),
            3.4028234663852886e38 / 40) << "storage and arithmetic alike: A / (4 (n_k + 1))";
  for (std::size_t e = 0; e < P.v.size(); ++e) P.v[e] = (e % 2 ? -1 : 1) * M * (0.5 + 0.5 * std::fabs(std::sin(double(e))));
  for (auto& q : P.q) q /= 16;
  const auto B = attend::any_order(P, empty_rows::zeros, hp(0x1p-24), hp(0x1p-126));
  auto out = doubles(attend::reference(P, empty_rows::zeros).out);
  hp over = 0;
  auto w = attend_convex_hull::compare(P, out, B, &over);
  EXPECT_TRUE(w.within());
  EXPECT_EQ(w.ratio, 0) << "inside the hull: no distance at all";
  out[3] = INFINITY;
  w = attend_convex_hull::compare(P, out, B, &over);
  EXPECT_FALSE(w.within());
  EXPECT_EQ(w.index, 3u);
  EXPECT_GT(over, hp(65504)) << "nine keys of nearly equal weight at F/4 to F/2 pass float16's largest value";
  // just outside the hull by twice the bound: caught; by half of it: within
  out = doubles(attend::reference(P, empty_rows::zeros).out);
  for (long i = 0; i < P.n_q; ++i) {
    hp hi = 0;  // column 0 of head 0 has the positive values (and the sink's 0)
    for (long j = 0; j < P.n_k; ++j) hi = std::max(hi, hp(P.v[P.vi(0, j, 0, 0)]));
    const std::size_t e = P.oi(0, i, 0, 0);
    out[e] = (hi + 2 * B.out[e]).convert_to<double>();
    EXPECT_FALSE(attend_convex_hull::compare(P, out, B).within()) << "row " << i;
    out[e] = (hi + B.out[e] / 2).convert_to<double>();
    EXPECT_TRUE(attend_convex_hull::compare(P, out, B).within()) << "row " << i;
    out[e] = attend::reference(P, empty_rows::zeros).out[e].convert_to<double>();
  }
}

TEST(AttendLaws, ReferenceNamesTheVariantAWrongKernelComputes) {
  problem P = drawn(1, 4, 2, 3, 6, 2, 2);
  P.softcap = 1;
  const auto B = attend::any_order(P, empty_rows::zeros, hp(0x1p-52), hp(0x1p-1022));
  const auto right = doubles(attend::reference(P, empty_rows::zeros).out);
  EXPECT_TRUE(attend_reference::compare(P, right, {}, attend::reference(P, empty_rows::zeros), B).within());
  const auto tiled = doubles(attend::reference(P, empty_rows::zeros, attend::variant{.tile = true}).out);
  const auto w = attend_reference::compare(P, tiled, {}, attend::reference(P, empty_rows::zeros), B);
  EXPECT_FALSE(w.within());
  bool named = false;
  for (const auto& v : attend_reference::variants(P))
    if (attend_reference::compare(P, tiled, {}, attend::reference(P, empty_rows::zeros, v.w), B).within())
      named = std::string(v.name).find("GQA mapping") == 0;
  EXPECT_TRUE(named);
}

// A row that reads only its first L keys (a score buffer of L logits,
// clamped) is named with its L, the largest power of two below the longest
// row tried first: 32 of 40 keys here, and no limit is tried at or above
// the longest row, where it would drop nothing.
TEST(AttendLaws, AKeyLimitIsNamedWithItsLength) {
  problem P = drawn(1, 2, 1, 2, 40, 2, 2);
  const auto E = attend::reference(P, empty_rows::zeros);
  const auto B = attend::any_order(P, empty_rows::zeros, hp(0x1p-52), hp(0x1p-1022));
  const auto cut = doubles(attend::reference(P, empty_rows::zeros, attend::variant{.key_limit = 32}).out);
  EXPECT_FALSE(attend_reference::compare(P, cut, {}, E, B).within());
  std::string named;
  for (const auto& v : attend_reference::variants(P)) {
    EXPECT_LT(v.w.key_limit, 40) << v.name;
    if (named.empty() && attend_reference::compare(P, cut, {}, attend::reference(P, empty_rows::zeros, v.w), B).within())
      named = v.name;
  }
  EXPECT_EQ(named.rfind("keys past 32 dropped", 0), 0u) << named;
  P.k_len = {30};  // the longest row is 30 keys: 32 drops nothing, 16 is the first limit tried
  std::vector<long> limits;
  for (const auto& v : attend_reference::variants(P))
    if (v.w.key_limit) limits.push_back(v.w.key_limit);
  EXPECT_EQ(limits, (std::vector<long>{16}));
}

// Each wrong reading of the scale, the softcap and ALiBi is named by its own
// class: the first variant the diagnosis tries that the output matches is it.
TEST(AttendLaws, ScaleSoftcapAndAlibiBugsAreEachNamedByTheirOwnClass) {
  problem P = drawn(1, 2, 1, 3, 9, 4, 2);
  for (auto& x : P.q) x *= 3;  // logits past the cap
  P.scale = 0.8;
  P.softcap = 1.5;
  P.alibi = {0.5, 0.25};
  P.q_start = {6};
  const auto E = attend::reference(P, empty_rows::zeros);
  const auto B = attend::any_order(P, empty_rows::zeros, hp(0x1p-52), hp(0x1p-1022));
  const struct {
    attend::variant w;
    const char* name;
  } bugs[] = {{{.no_scale = true}, "scale ignored"},
              {{.no_softcap = true}, "softcap ignored"},
              {{.softcap_swish = true}, "softcap formula"},
              {{.no_alibi = true}, "ALiBi ignored"},
              {{.cap_after_bias = true}, "softcap after the ALiBi bias"}};
  for (const auto& bug : bugs) {
    const auto out = doubles(attend::reference(P, empty_rows::zeros, bug.w).out);
    EXPECT_FALSE(attend_reference::compare(P, out, {}, E, B).within()) << bug.name << " is caught";
    std::string named;
    for (const auto& v : attend_reference::variants(P))
      if (named.empty() && attend_reference::compare(P, out, {}, attend::reference(P, empty_rows::zeros, v.w), B).within())
        named = v.name;
    EXPECT_EQ(named.find(bug.name), 0u) << bug.name << " named " << named;
  }
}

// attend.independence changes one item's inputs (or one KV head's with the
// queries reading it) and nothing else; a correct computation moves no row
// of the others, the decode swap moves another item's rows, and a tile
// mapping moves exactly the heads that read the changed KV head under tile.
TEST(AttendLaws, IndependenceChangesOneItemOrHeadAndCatchesWhatReadsAcross) {
  problem P = drawn(3, 4, 2, 1, 6, 3, 2);
  P.k_len = {6, 4, 5};
  const auto fill = [](std::size_t e) { return 100.0 + double(e); };
  const problem I = attend_independence::item_changed(P, 1, fill);
  for (long b = 0; b < P.batch; ++b)
    for (long j = 0; j < P.n_k; ++j)
      for (long g = 0; g < P.h_kv; ++g) {
        const bool changes = b == 1 && j < P.k_len[1];
        EXPECT_EQ(I.k[I.ki(b, j, g, 0)] != P.k[P.ki(b, j, g, 0)], changes) << b << " " << j << " " << g;
        EXPECT_EQ(I.v[I.vi(b, j, g, 1)] != P.v[P.vi(b, j, g, 1)], changes) << b << " " << j << " " << g;
      }
  for (long h = 0; h < P.h_q; ++h) {
    EXPECT_NE(I.q[I.qi(1, 0, h, 0)], P.q[P.qi(1, 0, h, 0)]);
    EXPECT_EQ(I.q[I.qi(0, 0, h, 0)], P.q[P.qi(0, 0, h, 0)]);
  }
  const problem H = attend_independence::head_changed(P, 0, fill);
  for (long h = 0; h < P.h_q; ++h)  // heads 0 and 1 read KV head 0
    EXPECT_EQ(H.q[H.qi(2, 0, h, 1)] != P.q[P.qi(2, 0, h, 1)], h < 2) << h;
  EXPECT_NE(H.k[H.ki(2, 0, 0, 0)], P.k[P.ki(2, 0, 0, 0)]);
  EXPECT_EQ(H.k[H.ki(2, 0, 1, 0)], P.k[P.ki(2, 0, 1, 0)]);
  EXPECT_EQ(H.v[H.vi(1, 5, 0, 0)], P.v[P.vi(1, 5, 0, 0)]) << "a padded value stays";

  const auto run = [](const problem& X, const attend::variant& w) {
    const auto E = attend::reference(X, empty_rows::zeros, w);
    return std::make_pair(doubles(E.out), doubles(E.lse));
  };
  const auto other_items = [](long b, long) { return b != 1; };
  const auto other_heads = [&](long, long h) { return attend::kv_head(P, h) != 0; };
  // correct: the rows of the other items and heads keep their bits
  const auto [a, la] = run(P, {});
  const auto [bi, lbi] = run(I, {});
  const auto [bh, lbh] = run(H, {});
  EXPECT_TRUE(attend_independence::moved(P, other_items, a, la, bi, lbi).empty());
  EXPECT_TRUE(attend_independence::moved(P, other_heads, a, la, bh, lbh).empty());
  // the decode swap: query head 2g + 1 of item 0 reads item 1's query
  const attend::variant sw{.decode_swap = true};
  const auto [sa, sla] = run(P, sw);
  const auto [si, sli] = run(I, sw);
  const auto rows = attend_independence::moved(P, other_items, sa, sla, si, sli);
  ASSERT_FALSE(rows.empty());
  for (const auto& r : rows) EXPECT_TRUE(r.b == 0 && r.h % 2 == 1) << r.b << " " << r.h;
  // tile: of the compared heads 2 and 3 (KV head 1 under repeat), head 2 reads KV head 0 under tile
  const attend::variant tile{.tile = true};
  const auto [ta, tla] = run(P, tile);
  const auto [th, tlh] = run(H, tile);
  const auto moved_heads = attend_independence::moved(P, other_heads, ta, tla, th, tlh);
  ASSERT_FALSE(moved_heads.empty());
  for (const auto& r : moved_heads) EXPECT_EQ(r.h, 2);
  EXPECT_TRUE(attend_independence::tile_explains(P, 0, moved_heads));
  EXPECT_FALSE(attend_independence::tile_explains(P, 1, moved_heads));
}

// The decode swap is named by its own class, and only at n_q = 1 with GQA.
TEST(AttendLaws, TheDecodeSwapIsNamedAtASingleQueryWithGqaOnly) {
  problem P = drawn(2, 4, 2, 1, 7, 4, 3);
  const auto B = attend::any_order(P, empty_rows::zeros, hp(0x1p-52), hp(0x1p-1022));
  const attend::variant sw{.decode_swap = true};
  const auto out = doubles(attend::reference(P, empty_rows::zeros, sw).out);
  EXPECT_FALSE(attend_reference::compare(P, out, {}, attend::reference(P, empty_rows::zeros), B).within());
  std::string named;
  for (const auto& v : attend_reference::variants(P))
    if (named.empty() && attend_reference::compare(P, out, {}, attend::reference(P, empty_rows::zeros, v.w), B).within())
      named = v.name;
  EXPECT_EQ(named.find("GQA single-query swap"), 0u) << named;
  // the same heads at n_q = 2, or without GQA: the swap does not apply
  for (const problem& Q : {drawn(2, 4, 2, 2, 7, 4, 3), drawn(2, 4, 4, 1, 7, 4, 3)}) {
    EXPECT_FALSE(attend::decode_swapped(Q, sw));
    for (const auto& v : attend_reference::variants(Q)) EXPECT_FALSE(v.w.decode_swap);
  }
}

TEST(AttendLaws, ANanAgreesOnlyWithANan) {
  attend_compare::worst w;
  attend_compare::raise(w, 0, false, std::nan(""), hp(1), hp(1));
  EXPECT_FALSE(w.within());
  attend_compare::worst x;
  attend_compare::raise(x, 0, false, std::nan(""), hp(std::nan("")), hp(0));
  EXPECT_TRUE(x.within());
  attend_compare::worst y;
  attend_compare::raise(y, 0, true, -INFINITY, hp(-INFINITY), hp(0));
  EXPECT_TRUE(y.within()) << "the lse of an empty row";
}

TEST(AttendLaws, GqaRepeatCopiesTheKvHeadEachQueryHeadReads) {
  const problem P = drawn(2, 4, 2, 2, 3, 2, 2);
  const problem R = attend_gqa_repeat::repeated(P);
  EXPECT_EQ(R.h_kv, 4);
  EXPECT_EQ(R.k[R.ki(1, 2, 1, 1)], P.k[P.ki(1, 2, 0, 1)]);
  EXPECT_EQ(R.v[R.vi(1, 2, 3, 0)], P.v[P.vi(1, 2, 1, 0)]);
  const auto a = doubles(attend::reference(P, empty_rows::zeros).out), b = doubles(attend::reference(R, empty_rows::zeros).out);
  const auto B = attend::any_order(P, empty_rows::zeros, hp(0x1p-24), hp(0x1p-126));
  EXPECT_TRUE(attend_gqa_repeat::compare(a, b, B).within());
  const auto t = doubles(attend::reference(P, empty_rows::zeros, attend::variant{.tile = true}).out);
  EXPECT_FALSE(attend_gqa_repeat::compare(t, b, B).within());
}

TEST(AttendLaws, CausalPrefixComparesTheShieldedRowsBitForBit) {
  problem P = drawn(1, 1, 1, 4, 4, 2, 2);
  P.causal = true;  // top-left: row i sees keys 0..i
  const long cut = 2;
  EXPECT_TRUE(attend_causal_prefix::shielded(P, 0, 1, cut, empty_rows::zeros));
  EXPECT_FALSE(attend_causal_prefix::shielded(P, 0, 2, cut, empty_rows::zeros));
  const problem C = attend_causal_prefix::changed_after(P, cut, [](std::size_t i) { return 100.0 + double(i); });
  EXPECT_EQ(C.k[C.ki(0, 1, 0, 0)], P.k[P.ki(0, 1, 0, 0)]);
  EXPECT_NE(C.k[C.ki(0, 2, 0, 0)], P.k[P.ki(0, 2, 0, 0)]);
  const auto a = doubles(attend::reference(P, empty_rows::zeros).out);
  EXPECT_EQ(attend_causal_prefix::first_difference(P, cut, empty_rows::zeros, a,
                                                   doubles(attend::reference(C, empty_rows::zeros).out)),
            -1);
  // a kernel without the mask: row 1 moves
  problem open = P, open_c = C;
  open.causal = open_c.causal = false;
  EXPECT_GE(attend_causal_prefix::first_difference(P, cut, empty_rows::zeros,
                                                   doubles(attend::reference(open, empty_rows::zeros).out),
                                                   doubles(attend::reference(open_c, empty_rows::zeros).out)),
            0);
}

// Found by the Python example EagerFinfoMin (examples/python/eager_attention.py),
// which declares "the mean of V": an empty row's declared value depends on
// every valid value, the changed ones included, and the law compared it.
TEST(AttendLaws, CausalPrefixLeavesOutEmptyRowsWhoseConventionIsTheMeanOfV) {
  problem P = drawn(1, 1, 1, 3, 4, 2, 2);
  P.causal = true;
  P.q_start = {-1};  // row 0 at position -1 sees no key: empty
  const long cut = 2;
  ASSERT_TRUE(attend::empty_row(P, 0, 0));
  EXPECT_TRUE(attend_causal_prefix::shielded(P, 0, 0, cut, empty_rows::zeros));
  EXPECT_FALSE(attend_causal_prefix::shielded(P, 0, 0, cut, empty_rows::mean));
  EXPECT_TRUE(attend_causal_prefix::shielded(P, 0, 1, cut, empty_rows::mean)) << "row 1 sees keys 0..0";
  const problem C = attend_causal_prefix::changed_after(P, cut, [](std::size_t i) { return 100.0 + double(i); });
  const auto a = doubles(attend::reference(P, empty_rows::mean).out), c = doubles(attend::reference(C, empty_rows::mean).out);
  EXPECT_EQ(attend_causal_prefix::first_difference(P, cut, empty_rows::mean, a, c), -1);
  // compared, the empty row differs: the mean took in the changed values
  EXPECT_EQ(attend_causal_prefix::first_difference(P, cut, empty_rows::zeros, a, c), long(P.oi(0, 0, 0, 0)));
}

TEST(AttendLaws, LseMergeOfTheHalvesIsTheWholeCall) {
  problem P = drawn(2, 2, 1, 3, 7, 3, 2);
  P.causal = true;
  P.q_start = {4, 2};  // bottom-right and a cache of 2
  P.left = 3;
  P.k_len = {7, 5};
  P.alibi = {0.5, 0.25};
  P.lse = true;
  const long cut = 3;
  const problem A = attend_lse_merge::keys(P, 0, cut), Bh = attend_lse_merge::keys(P, cut, P.n_k);
  EXPECT_EQ(A.n_k, 3);
  EXPECT_EQ(Bh.n_k, 4);
  EXPECT_EQ(Bh.q_start, (std::vector<long>{1, -1})) << "the queries' positions shift by the cut";
  EXPECT_EQ(Bh.k_len, (std::vector<long>{4, 2}));
  EXPECT_EQ(Bh.k[Bh.ki(1, 0, 0, 2)], P.k[P.ki(1, 3, 0, 2)]);
  // the halves' exact values, merged, are the whole's (an empty half row weighs 0)
  const hp u = hp(0x1p-53), mu = hp(0x1p-1022);
  const auto E = attend::reference(P, empty_rows::zeros), E1 = attend::reference(A, empty_rows::zeros),
             E2 = attend::reference(Bh, empty_rows::zeros);
  EXPECT_TRUE(attend::any_empty_row(A) || attend::any_empty_row(Bh)) << "the case exercises an empty half row";
  const auto B = attend::any_order(P, empty_rows::zeros, u, mu), B1 = attend::any_order(A, empty_rows::zeros, u, mu),
             B2 = attend::any_order(Bh, empty_rows::zeros, u, mu);
  const auto o = doubles(E.out), l = doubles(E.lse), o1 = doubles(E1.out), l1 = doubles(E1.lse),
             o2 = doubles(E2.out), l2 = doubles(E2.lse);
  const attend_lse_merge::side whole{o, l, B}, a{o1, l1, B1}, b{o2, l2, B2};
  const auto w = attend_lse_merge::compare(P, a, b, whole);
  EXPECT_TRUE(w.within()) << "ratio " << w.ratio << " at " << w.index << (w.lse ? " (lse)" : "");
  EXPECT_LT(w.ratio, 0.1) << "exact values (rounded to double) merge far inside the bound";
  // log-sum-exps in base 2: the merge breaks, and reads right in base 2
  auto log2_of = [](std::vector<double> v) {
    for (auto& x : v) x /= std::log(2.0);
    return v;
  };
  const auto L = log2_of(l), L1 = log2_of(l1), L2 = log2_of(l2);
  const attend_lse_merge::side whole2{o, L, B}, a2{o1, L1, B1}, b2{o2, L2, B2};
  EXPECT_FALSE(attend_lse_merge::compare(P, a2, b2, whole2).within());
  EXPECT_TRUE(attend_lse_merge::compare(P, a2, b2, whole2, 2.0).within());
  // a half whose log-sum-exp forgets its maximum (ln of the shifted sum only) breaks it too
  auto l1_bad = l1;
  for (auto& x : l1_bad) x = std::isinf(x) ? x : x - 1.5;
  const attend_lse_merge::side a3{o1, l1_bad, B1};
  EXPECT_FALSE(attend_lse_merge::compare(P, a3, b, whole).within());
}

TEST(AttendLaws, DecodeRowsAreTheLastRowsOfTheSquareCall) {
  problem D = drawn(1, 2, 1, 2, 5, 3, 2);
  D.causal = true;
  D.q_start = {3};  // n_k - n_q
  const problem F = attend_decode_rows::square(D, [](std::size_t i) { return std::cos(double(i)); });
  EXPECT_EQ(F.n_q, 5);
  EXPECT_EQ(F.q_start[0], 0);
  EXPECT_EQ(F.q[F.qi(0, 4, 1, 2)], D.q[D.qi(0, 1, 1, 2)]);
  const auto Bd = attend::any_order(D, empty_rows::zeros, hp(0x1p-24), hp(0x1p-126)),
             Bf = attend::any_order(F, empty_rows::zeros, hp(0x1p-24), hp(0x1p-126));
  const auto full = doubles(attend::reference(F, empty_rows::zeros).out);
  EXPECT_TRUE(attend_decode_rows::compare(D, F, doubles(attend::reference(D, empty_rows::zeros).out), full, Bd, Bf).within());
  const auto top_left = doubles(attend::reference(D, empty_rows::zeros, attend::variant{.top_left = true}).out);
  EXPECT_FALSE(attend_decode_rows::compare(D, F, top_left, full, Bd, Bf).within());
}

// attend.cache: the steps carry the prefill's rows and the cache up to them;
// exact steps agree with the exact prefill; a prefill without its causal
// mask (transformers#48748) and a step aligned top-left against its cache
// (pytorch#144858) do not, while the last rows (decode_rows' comparison)
// cannot tell the dropped mask.
TEST(AttendLaws, CacheStepsAreThePrefillsRowsAgainstTheCacheSoFar) {
  problem P = drawn(2, 4, 2, 3, 7, 3, 2);
  P.softcap = 2;
  P.alibi = {0.5, 0.25, 0.125, 0.0625};
  const problem F = attend_cache::prefill(P, [](std::size_t i) { return std::cos(double(i) * 0.9); });
  EXPECT_EQ(F.n_q, 7);
  EXPECT_TRUE(F.causal);
  EXPECT_EQ(F.q_start[1], 0);
  const problem S = attend_cache::step(F, 3, 2);
  EXPECT_EQ(S.n_q, 2);
  EXPECT_EQ(S.n_k, 5);
  EXPECT_EQ(S.q_start[1], 3);
  EXPECT_EQ(S.k_len[1], 5);
  EXPECT_EQ(S.q[S.qi(1, 1, 3, 2)], F.q[F.qi(1, 4, 3, 2)]);
  EXPECT_EQ(S.v[S.vi(1, 4, 1, 1)], F.v[F.vi(1, 4, 1, 1)]);
  const auto u = hp(0x1p-24), mu = hp(0x1p-126);
  const auto Bf = attend::any_order(F, empty_rows::zeros, u, mu);
  const auto E = attend::reference(F, empty_rows::zeros);
  const auto fo = doubles(E.out), fl = doubles(E.lse);
  for (const auto& [p0, c] : {std::pair{0L, 1L}, std::pair{3L, 1L}, std::pair{3L, 2L}, std::pair{6L, 1L}}) {
    const problem St = attend_cache::step(F, p0, c);
    const auto Bs = attend::any_order(St, empty_rows::zeros, u, mu);
    const auto Es = attend::reference(St, empty_rows::zeros);
    attend_compare::worst w;
    attend_cache::compare(w, St, p0, F, doubles(Es.out), doubles(Es.lse), fo, fl, Bs, Bf);
    EXPECT_TRUE(w.within()) << p0 << " " << c;
    // top-left against the cache: row 0 of the step sees key 0 only
    attend_compare::worst t;
    const auto Et = attend::reference(St, empty_rows::zeros, attend::variant{.top_left = true});
    attend_cache::compare(t, St, p0, F, doubles(Et.out), doubles(Et.lse), fo, fl, Bs, Bf);
    EXPECT_EQ(t.within(), p0 == 0) << p0 << " " << c;
  }
  // the prefill without its causal mask: every row but the last moves
  const auto Ed = attend::reference(F, empty_rows::zeros, attend::variant{.prefill_not_causal = true});
  const auto dropped = doubles(Ed.out), dropped_lse = doubles(Ed.lse);
  for (const long p0 : {0L, 3L, 6L}) {
    const problem St = attend_cache::step(F, p0, 1);
    const auto Es = attend::reference(St, empty_rows::zeros);
    attend_compare::worst w;
    attend_cache::compare(w, St, p0, F, doubles(Es.out), doubles(Es.lse), dropped, dropped_lse,
                          attend::any_order(St, empty_rows::zeros, u, mu), Bf);
    EXPECT_EQ(w.within(), p0 == 6) << p0;
  }
}

// Powers of two pass through the exact attention exactly: the queries scaled
// by 2^f with the scale by 2^-f give the same output and lse, the values
// scaled by 2^e give 2^e times the output. One ulp off fails either law,
// and the values' allowance is exactly the bound's terms below the smallest
// normal (nonzero only where a format has subnormals within reach).
TEST(AttendLaws, HomogeneityHoldsBitwiseForTheExactAttentionAndNotForOneUlp) {
  problem P = drawn(2, 4, 2, 3, 7, 5, 3);
  P.causal = true;
  P.q_start = {4, 1};
  P.softcap = 2.5;
  P.alibi = {0.5, 0.25, 0.125, 0.0625};
  P.lse = true;
  P = attend_homogeneity::explicit_scale(P);
  EXPECT_EQ(P.scale, 1 / std::sqrt(5.0));
  const problem Q = attend_homogeneity::queries_scaled(P, 4), V = attend_homogeneity::values_scaled(P, 3);
  EXPECT_EQ(Q.q[7], 16 * P.q[7]);
  EXPECT_EQ(Q.scale, P.scale / 16);
  EXPECT_EQ(V.v[5], 8 * P.v[5]);
  const auto E = attend::reference(P, empty_rows::zeros), EQ = attend::reference(Q, empty_rows::zeros),
             EV = attend::reference(V, empty_rows::zeros);
  auto a = doubles(E.out), la = doubles(E.lse), q = doubles(EQ.out), lq = doubles(EQ.lse), v = doubles(EV.out),
       lv = doubles(EV.lse);
  EXPECT_TRUE(attend_homogeneity::compare_queries(a, la, q, lq, nullptr, nullptr).within());
  attend::units U{hp(0x1p-24), hp(0x1p-126)};
  const auto UA = attend::underflow(P, empty_rows::zeros, U), UV = attend::underflow(V, empty_rows::zeros, U);
  auto w = attend_homogeneity::compare_values(3, a, la, v, lv, UA, UV);
  EXPECT_TRUE(w.within());
  EXPECT_EQ(w.ratio, 0) << "the exact values scale exactly";
  q[4] = std::nextafter(q[4], 10.0);
  EXPECT_FALSE(attend_homogeneity::compare_queries(a, la, q, lq, nullptr, nullptr).within()) << "bitwise";
  lv[2] = std::nextafter(lv[2], 10.0);
  w = attend_homogeneity::compare_values(3, a, la, v, lv, UA, UV);
  EXPECT_FALSE(w.within());
  EXPECT_TRUE(w.lse) << "the log-sum-exp does not read V: bitwise";
  lv = doubles(EV.lse);
  v[1] = v[1] * (1 + 0x1p-40);
  EXPECT_FALSE(attend_homogeneity::compare_values(3, a, la, v, lv, UA, UV).within())
      << "float32 arithmetic: the allowance is n mu max |v|, far below a relative 2^-40";
  // the allowance is the bound's underflow terms: float16 storage adds eta_s / 2
  const attend::units S{hp(0x1p-24), hp(0x1p-126), hp(0x1p-11), hp(0x1p-24)};
  const auto US = attend::underflow(P, empty_rows::zeros, S);
  const hp n = hp(double(P.n_k + 1));
  for (std::size_t e = 0; e < US.size(); ++e) {
    EXPECT_EQ(US[e], UA[e] + hp(0x1p-25)) << e;
    EXPECT_LE(US[e], attend::any_order(P, empty_rows::zeros, S).out[e]) << e;
    EXPECT_LE(UA[e], n * hp(0x1p-126) * 4) << "|v| <= 4";
  }
  EXPECT_TRUE(attend_homogeneity::queries_bitwise(U)) << "float32";
  EXPECT_TRUE(attend_homogeneity::queries_bitwise({hp(0x1p-24), hp(0x1p-126), hp(0x1p-8), hp(0x1p-133)}))
      << "bfloat16 storage: float32's smallest normal";
  EXPECT_FALSE(attend_homogeneity::queries_bitwise(S)) << "float16 storage: scores among its subnormals";
  EXPECT_FALSE(attend_homogeneity::queries_bitwise({hp(0x1p-11), hp(0x1p-14)})) << "float16 arithmetic";
}

TEST(AttendLaws, PaddingIsDroppingThePaddedKeys) {
  problem P = drawn(2, 1, 1, 2, 4, 2, 2);
  P.k_len = {2, 4};
  const problem N = attend_padding::poisoned(P);
  EXPECT_TRUE(std::isnan(N.k[N.ki(0, 3, 0, 0)]));
  EXPECT_FALSE(std::isnan(N.k[N.ki(1, 3, 0, 0)]));
  const problem I = attend_padding::item(P, 0);
  EXPECT_EQ(I.n_k, 2);
  EXPECT_EQ(I.v[I.vi(0, 1, 0, 1)], P.v[P.vi(0, 1, 0, 1)]);
  const auto Bp = attend::any_order(N, empty_rows::zeros, hp(0x1p-24), hp(0x1p-126)),
             Bi = attend::any_order(I, empty_rows::zeros, hp(0x1p-24), hp(0x1p-126));
  const auto alone = doubles(attend::reference(I, empty_rows::zeros).out);
  attend_compare::worst w;
  attend_padding::compare_item(w, N, 0, I, doubles(attend::reference(N, empty_rows::zeros).out), alone, Bp, Bi);
  EXPECT_TRUE(w.within());
  attend_compare::worst r;  // a kernel reading the padding: NaN
  attend_padding::compare_item(r, N, 0, I,
                               doubles(attend::reference(N, empty_rows::zeros, attend::variant{.reads_padding = true}).out),
                               alone, Bp, Bi);
  EXPECT_FALSE(r.within());
}

// The calls batch invariance compares hold the same rows: item b alone, and
// each slot of the wide call that repeats it, has the exact rows item b has
// in the batch (its q_start and k_len with it); a kernel reading the next
// item's queries (the GQA single-query swap) does not.
TEST(AttendLaws, BatchInvarianceRegroupsItemsWithTheirPositionsAndLengths) {
  problem P = drawn(3, 4, 2, 2, 6, 3, 2);
  P.causal = true;
  P.q_start = {4, 0, 2};
  P.k_len = {6, 3, 5};
  P.sink = {0.5, -1.0, 0.25, 2.0};
  P.lse = true;
  const problem W = attend_batch_invariance::wide(P);
  ASSERT_EQ(W.batch, attend_batch_invariance::kWide);
  EXPECT_EQ(W.q_start, (std::vector<long>{4, 0, 2, 4, 0, 2, 4, 0}));
  EXPECT_EQ(W.k_len, (std::vector<long>{6, 3, 5, 6, 3, 5, 6, 3}));
  const auto E = attend::reference(P, empty_rows::zeros), EW = attend::reference(W, empty_rows::zeros);
  const auto out = doubles(E.out), lse = doubles(E.lse), wout = doubles(EW.out), wlse = doubles(EW.lse);
  for (long b = 0; b < P.batch; ++b) {
    const problem I = attend_batch_invariance::alone(P, b);
    ASSERT_EQ(I.batch, 1);
    EXPECT_EQ(I.q_start[0], P.q_start[std::size_t(b)]);
    EXPECT_EQ(I.k_len[0], P.k_len[std::size_t(b)]);
    const auto EI = attend::reference(I, empty_rows::zeros);
    std::vector<double> rows, l_rows;
    attend_batch_invariance::item_rows(P, b, out, lse, rows, l_rows);
    EXPECT_EQ(rows, doubles(EI.out)) << "item " << b;
    EXPECT_EQ(l_rows, doubles(EI.lse)) << "item " << b;
    for (long s = b; s < W.batch; s += P.batch) {
      attend_batch_invariance::item_rows(W, s, wout, wlse, rows, l_rows);
      EXPECT_EQ(rows, doubles(EI.out)) << "slot " << s;
      EXPECT_EQ(l_rows, doubles(EI.lse)) << "slot " << s;
    }
  }
  // the swap reads item b + r's queries in the batch, its own alone
  P.n_q = 1;
  P.q.resize(std::size_t(P.batch * P.h_q * P.d));
  const auto swapped = doubles(attend::reference(P, empty_rows::zeros, attend::variant{.decode_swap = true}).out);
  std::vector<double> rows, l_rows;
  attend_batch_invariance::item_rows(P, 0, swapped, {}, rows, l_rows);
  EXPECT_NE(rows, doubles(attend::reference(attend_batch_invariance::alone(P, 0), empty_rows::zeros).out));
}

TEST(AttendLaws, TheSupportProbeReadsTheMaskOff) {
  problem P = drawn(1, 1, 1, 2, 8, 2, 3);
  P.causal = true;
  P.q_start = {6};
  P.left = 2;
  const problem R = attend_support::probe(P);
  EXPECT_EQ(R.d_v, 8);
  auto out = doubles(attend::reference(R, empty_rows::zeros).out);
  attend_support::row_support s;
  EXPECT_FALSE(attend_support::first_mismatch(R, out, s));
  EXPECT_NEAR(out[R.oi(0, 0, 0, 4)], 1.0 / 3, 1e-15) << "keys 4..6, equal weights";
  out = doubles(attend::reference(R, empty_rows::zeros, attend::variant{.window_extra = 1}).out);
  ASSERT_TRUE(attend_support::first_mismatch(R, out, s));
  EXPECT_EQ(attend_support::ranges(s.got), "3..6");
  EXPECT_EQ(attend_support::ranges(s.want), "4..6");
  EXPECT_NE(attend_support::classify(R, out, 0).find("W + 1 keys"), std::string::npos);
  out = doubles(attend::reference(R, empty_rows::zeros, attend::variant{.top_left = true}).out);
  EXPECT_NE(attend_support::classify(R, out, 0).find("top-left"), std::string::npos);
}

// attend.permutation: the causal mask, window and padding written as a bias
// see the same keys; queries and keys permuted with the bias give the same
// exact rows, permuted; the bias's rows left in place (the queries moved
// without their mask) break the law.
TEST(AttendLaws, PermutationCarriesTheMaskAsABiasWithTheQueriesAndKeys) {
  problem P = drawn(2, 4, 2, 5, 7, 3, 2);
  P.causal = true;
  P.q_start = {2, 0};
  P.left = 3;
  P.k_len = {7, 5};
  P.softcap = 2;
  P.sink = {0.5, -1, 0.25, 2};
  P.lse = true;
  P.bias_batch = 1;
  P.bias.assign(std::size_t(P.n_q * P.n_k), 0.0);
  for (std::size_t e = 0; e < P.bias.size(); ++e) P.bias[e] = e % 6 == 1 ? -INFINITY : double(long(e % 9) - 4) / 4;
  const problem R = attend_permutation::as_bias(P);
  EXPECT_FALSE(R.causal);
  EXPECT_EQ(R.bias_batch, 2);
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long j = 0; j < P.n_k; ++j) EXPECT_EQ(attend::visible(R, b, i, j), attend::visible(P, b, i, j));
  const std::vector<long> pi = {3, 0, 4, 1, 2}, sigma = {6, 2, 0, 5, 1, 3, 4};
  const problem S = attend_permutation::permuted(R, pi, sigma);
  const attend::exact EP = attend::reference(P, empty_rows::zeros), ES = attend::reference(S, empty_rows::zeros);
  for (long b = 0; b < P.batch; ++b)
    for (long h = 0; h < P.h_q; ++h)
      for (long i = 0; i < P.n_q; ++i) {
        EXPECT_LT(abs(ES.lse[S.li(b, h, pi[std::size_t(i)])] - EP.lse[P.li(b, h, i)]), hp(1e-60));
        for (long c = 0; c < P.d_v; ++c)
          EXPECT_LT(abs(ES.out[S.oi(b, pi[std::size_t(i)], h, c)] - EP.out[P.oi(b, i, h, c)]), hp(1e-60));
      }
  const attend::units U{hp(0x1p-24), hp(0x1p-126)};
  const attend::bounds BP = attend::any_order(P, empty_rows::zeros, U), BS = attend::any_order(S, empty_rows::zeros, U);
  EXPECT_TRUE(attend_permutation::compare(P, pi, doubles(EP.out), doubles(EP.lse), doubles(ES.out), doubles(ES.lse),
                                          BP, BS)
                  .within());
  // the queries and keys moved, the bias's rows not: each query reads another query's mask
  problem W = S;
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long j = 0; j < P.n_k; ++j)
        W.bias[W.bi(b, pi[std::size_t(i)], sigma[std::size_t(j)])] = R.bias[R.bi(b, pi[std::size_t(i)], j)];
  const attend::exact EW = attend::reference(W, empty_rows::zeros);
  EXPECT_FALSE(attend_permutation::compare(P, pi, doubles(EP.out), doubles(EP.lse), doubles(EW.out),
                                           doubles(EW.lse), BP, BS)
                   .within());
}

// Three items of 4 queries over 6, 3 and 5 valid keys, causal, the queries
// at 2, 0 and 1 (the packing laws' problem).
problem three_items() {
  problem P = drawn(3, 2, 1, 4, 6, 3, 2);
  P.causal = true;
  P.q_start = {2, 0, 1};
  P.k_len = {6, 3, 5};
  return P;
}

// attend.packing: the items packed end to end with a block-diagonal bias
// give each item's exact rows; a block that lets a row see the next item's
// keys (cross-document attention) does not.
TEST(AttendLaws, PackingIsTheItemsCalledApart) {
  problem P = three_items();
  P.right = 0;
  P.left = 2;
  P.sink = {0.5, -1};
  P.lse = true;
  P.bias_batch = 3;
  P.bias.assign(std::size_t(3 * P.n_q * P.n_k), 0.25);
  P.bias[P.bi(1, 2, 1)] = -INFINITY;
  const problem Q = attend_packing::packed(P);
  EXPECT_EQ(Q.batch, 1);
  EXPECT_EQ(Q.n_q, 12);
  EXPECT_EQ(Q.n_k, 6 + 3 + 5) << "only the valid keys are packed";
  EXPECT_EQ(attend_packing::key_offset(P, 2), 9);
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long jp = 0; jp < Q.n_k; ++jp) {
        const long item = jp < 6 ? 0 : jp < 9 ? 1 : 2, j = jp - attend_packing::key_offset(P, item);
        EXPECT_EQ(attend::visible(Q, 0, b * P.n_q + i, jp), item == b && attend::visible(P, b, i, j))
            << "item " << b << " row " << i << " packed key " << jp;
      }
  const attend::exact EP = attend::reference(P, empty_rows::zeros), EQ = attend::reference(Q, empty_rows::zeros);
  const attend::units U{hp(0x1p-24), hp(0x1p-126)};
  const attend::bounds BP = attend::any_order(P, empty_rows::zeros, U), BQ = attend::any_order(Q, empty_rows::zeros, U);
  const auto w = attend_packing::compare(P, Q, doubles(EP.out), doubles(EP.lse), doubles(EQ.out), doubles(EQ.lse), BP, BQ);
  EXPECT_TRUE(w.within());
  EXPECT_LT(w.ratio, hp(1e-20)) << "the same exact rows";
  // item 0's last row may see item 1's first key: the rows differ
  problem X = Q;
  X.bias[X.bi(0, P.n_q - 1, 6)] = 0;
  const attend::exact EX = attend::reference(X, empty_rows::zeros);
  EXPECT_FALSE(
      attend_packing::compare(P, X, doubles(EP.out), doubles(EP.lse), doubles(EX.out), doubles(EX.lse), BP, BQ).within());
}

// Packed items told as such (the varlen call): their offsets, positions,
// valid keys and flags say which keys each packed row sees exactly as the
// block-diagonal bias the reference reads does, and the call asks for the
// log-sum-exp when the batched one does. The wrong reading that cuts the keys with the queries'
// offsets (vllm-omni PR 3525) is the same problem when every item has as
// many queries as valid keys, and another one when they differ.
TEST(AttendLaws, PackedItemsSayWhatTheirBiasSays) {
  problem P = three_items();
  P.left = 2;
  P.lse = true;
  const problem Q = attend_packing::packed_items(P);
  ASSERT_TRUE(Q.varlen.packed());
  EXPECT_TRUE(Q.lse);
  EXPECT_EQ(Q.varlen.cu_q, (std::vector<long>{0, 4, 8, 12}));
  EXPECT_EQ(Q.varlen.cu_k, (std::vector<long>{0, 6, 9, 14}));
  const attend::varlen_items& V = Q.varlen;
  for (long b = 0; b < V.items(); ++b)
    for (long ip = V.cu_q[std::size_t(b)]; ip < V.cu_q[std::size_t(b) + 1]; ++ip)
      for (long jp = 0; jp < Q.n_k; ++jp) {
        const long i = ip - V.cu_q[std::size_t(b)], j = jp - V.cu_k[std::size_t(b)], pos = V.q_start[std::size_t(b)] + i;
        const bool told = jp >= V.cu_k[std::size_t(b)] && jp < V.cu_k[std::size_t(b) + 1] &&
                          j < V.k_len[std::size_t(b)] && (!V.causal || j <= pos) && (V.left < 0 || j >= pos - V.left) &&
                          (V.right < 0 || j <= pos + V.right);
        EXPECT_EQ(attend::visible(Q, 0, ip, jp), told) << "item " << b << " packed row " << ip << " key " << jp;
      }
  const auto seen = [](const problem& X) {
    std::vector<bool> v;
    for (long i = 0; i < X.n_q; ++i)
      for (long j = 0; j < X.n_k; ++j) v.push_back(attend::visible(X, 0, i, j));
    return v;
  };
  EXPECT_NE(seen(attend_packing::keys_from_query_offsets(P)), seen(Q)) << "4 queries, 6, 3 and 5 keys";
  problem E = drawn(2, 2, 1, 3, 3, 2, 2);
  E.causal = true;
  EXPECT_EQ(seen(attend_packing::keys_from_query_offsets(E)), seen(attend_packing::packed_items(E)))
      << "as many queries as keys: the offsets agree";
}

// The calls a law makes from a problem (an item alone without its padded
// keys, the halves of a key cut, a regrouped batch) carry their part of its
// explicit bias: the same keys are visible and the exact rows are the
// problem's, bit for bit.
TEST(AttendLaws, TheReshapedCallsCarryTheirPartOfTheBias) {
  problem P = drawn(3, 2, 1, 3, 6, 2, 2);
  P.k_len = {6, 4, 5};
  P.sink = {0.5, -1};
  P.bias_batch = 3;
  P.bias.assign(std::size_t(3 * P.n_q * P.n_k), 0.0);
  for (std::size_t e = 0; e < P.bias.size(); ++e) P.bias[e] = e % 7 == 3 ? -INFINITY : double(long(e % 5) - 2) / 4;
  const attend::exact E = attend::reference(P, empty_rows::zeros);
  const auto same_rows = [&](long b, const problem& R, long s) {
    const attend::exact F = attend::reference(R, empty_rows::zeros);
    for (long i = 0; i < P.n_q; ++i)
      for (long h = 0; h < P.h_q; ++h)
        for (long c = 0; c < P.d_v; ++c)
          EXPECT_EQ(F.out[R.oi(s, i, h, c)], E.out[P.oi(b, i, h, c)]) << "item " << b << " slot " << s;
  };
  for (long b = 0; b < P.batch; ++b) {
    same_rows(b, attend_padding::item(P, b), 0);
    same_rows(b, attend_batch_invariance::alone(P, b), 0);
  }
  const problem W = attend_batch_invariance::wide(P);
  EXPECT_EQ(W.bias_batch, W.batch);
  for (long s = 0; s < W.batch; ++s) same_rows(s % P.batch, W, s);
  // the halves of a cut at key 2: each key keeps its bias
  const problem H = attend_lse_merge::keys(P, 2, P.n_k);
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long j = 0; j < H.n_k; ++j) {
        EXPECT_EQ(H.bias[H.bi(b, i, j)], P.bias[P.bi(b, i, j + 2)]);
        EXPECT_EQ(attend::visible(H, b, i, j), attend::visible(P, b, i, j + 2));
      }
  // a shared bias stays shared
  problem S = P;
  S.bias_batch = 1;
  S.bias.resize(std::size_t(P.n_q * P.n_k));
  EXPECT_EQ(attend_batch_invariance::wide(S).bias_batch, 1);
  EXPECT_EQ(attend_batch_invariance::wide(S).bias, S.bias);
}

// The decode call's rows are the square call's last rows, bias included, and
// each cached step's rows are the prefill's: the same exact outputs bit for
// bit, with a bias of one per item masking keys; a row's own key is never
// masked, so no row of either is empty (a kernel without an empty-row
// convention answers them all).
TEST(AttendLaws, TheDecodeAndCachedCallsCarryTheirRowsOfTheBias) {
  problem D = drawn(2, 2, 1, 3, 7, 2, 2);
  D.causal = true;
  D.q_start = {4, 4};
  D.bias_batch = 2;
  D.bias.assign(std::size_t(2 * D.n_q * D.n_k), 0.0);
  for (std::size_t e = 0; e < D.bias.size(); ++e) D.bias[e] = e % 3 == 1 ? -INFINITY : double(long(e % 5) - 2) / 4;
  attend::keep_own_key(D);
  const problem F = attend_decode_rows::square(D, [](std::size_t e) { return std::cos(double(e)); });
  const attend::exact Ed = attend::reference(D, empty_rows::zeros), Ef = attend::reference(F, empty_rows::zeros);
  for (long b = 0; b < D.batch; ++b)
    for (long i = 0; i < D.n_q; ++i)
      for (long h = 0; h < D.h_q; ++h) {
        EXPECT_EQ(Ed.lse[D.li(b, h, i)], Ef.lse[F.li(b, h, i + 4)]) << "item " << b << " row " << i;
        for (long c = 0; c < D.d_v; ++c) EXPECT_EQ(Ed.out[D.oi(b, i, h, c)], Ef.out[F.oi(b, i + 4, h, c)]);
      }
  EXPECT_FALSE(attend::any_empty_row(D));
  EXPECT_FALSE(attend::any_empty_row(F));
  const problem P = attend_cache::prefill(D, [](std::size_t e) { return std::sin(double(e) * 0.3); });
  EXPECT_FALSE(attend::any_empty_row(P));
  const attend::exact Ep = attend::reference(P, empty_rows::zeros);
  for (const auto [p0, c] : {std::pair<long, long>{3, 1}, {0, 1}, {2, 4}}) {
    const problem S = attend_cache::step(P, p0, c);
    const attend::exact Es = attend::reference(S, empty_rows::zeros);
    for (long b = 0; b < S.batch; ++b)
      for (long i = 0; i < S.n_q; ++i)
        for (long h = 0; h < S.h_q; ++h) {
          EXPECT_EQ(Es.lse[S.li(b, h, i)], Ep.lse[P.li(b, h, p0 + i)]) << "step at " << p0 << ", item " << b;
          for (long cc = 0; cc < S.d_v; ++cc) EXPECT_EQ(Es.out[S.oi(b, i, h, cc)], Ep.out[P.oi(b, p0 + i, h, cc)]);
        }
  }
  // a shared bias: each item's own key kept (items at different positions)
  problem Q = D;
  Q.q_start = {4, 2};
  Q.bias_batch = 1;
  Q.bias.assign(std::size_t(Q.n_q * Q.n_k), -INFINITY);
  attend::keep_own_key(Q);
  EXPECT_FALSE(attend::any_empty_row(Q));
}

// Every key twice: the masks written as the bias they mean, keys, values and
// bias columns repeated; the exact outputs are the problem's and the exact
// log-sum-exps the problem's plus ln 2 (to MPFR's rounding of the longer sums).
TEST(AttendLaws, EveryKeyTwiceGivesTheOutputAndTheLseLn2Above) {
  problem P = drawn(2, 2, 1, 3, 5, 2, 2);
  P.causal = true;
  P.q_start = {2, 1};
  P.left = 2;
  P.k_len = {5, 4};
  P.softcap = 3;
  P.lse = true;
  P.bias_batch = 2;
  P.bias.assign(std::size_t(2 * P.n_q * P.n_k), 0.0);
  for (std::size_t e = 0; e < P.bias.size(); ++e) P.bias[e] = e % 4 == 1 ? -INFINITY : double(long(e % 5) - 2) / 4;
  const problem T = attend_self_merge::twice(P);
  EXPECT_EQ(T.n_k, 2 * P.n_k);
  const attend::exact E = attend::reference(P, empty_rows::zeros), Et = attend::reference(T, empty_rows::zeros);
  const hp tiny = hp(0x1p-200), ln2 = log(hp(2));
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long h = 0; h < P.h_q; ++h) {
        if (attend::empty_row(P, b, i)) continue;
        EXPECT_LE(abs(Et.lse[T.li(b, h, i)] - (E.lse[P.li(b, h, i)] + ln2)), tiny) << "item " << b << " row " << i;
        for (long c = 0; c < P.d_v; ++c)
          EXPECT_LE(abs(Et.out[T.oi(b, i, h, c)] - E.out[P.oi(b, i, h, c)]), tiny * (1 + abs(E.out[P.oi(b, i, h, c)])));
      }
}

// The sink as a key of value 0 whose logit is the sink (an explicit bias on
// k = 0, capped to 0 by the softcap first): the exact outputs and
// log-sum-exps are the problem's, rows that see only the sink included (their
// output 0, their log-sum-exp the sink); dropping the sink from the problem
// moves them (the law can fail).
TEST(AttendLaws, TheSinkAsAKeyOfValueZeroGivesTheRowsOfTheSink) {
  problem P = drawn(2, 2, 1, 3, 5, 2, 2);
  P.causal = true;
  P.q_start = {2, -1};  // item 1's query 0 sees no key, only the sink
  P.left = 2;
  P.k_len = {5, 4};
  P.softcap = 3;
  P.lse = true;
  P.sink = {0.75, 0.75};
  P.bias_batch = 2;
  P.bias.assign(std::size_t(2 * P.n_q * P.n_k), 0.0);
  for (std::size_t e = 0; e < P.bias.size(); ++e) P.bias[e] = e % 4 == 1 ? -INFINITY : double(long(e % 5) - 2) / 4;
  const problem T = attend_sink_as_key::sink_as_key(P);
  EXPECT_EQ(T.n_k, P.n_k + 1);
  EXPECT_TRUE(T.sink.empty());
  const attend::exact E = attend::reference(P, empty_rows::zeros), Et = attend::reference(T, empty_rows::zeros);
  const hp tiny = hp(0x1p-200);
  ASSERT_FALSE(attend::empty_row(P, 1, 0));
  for (long h = 0; h < P.h_q; ++h) {
    EXPECT_LE(abs(E.lse[P.li(1, h, 0)] - hp(0.75)), tiny) << "a row that sees only the sink";
    for (long c = 0; c < P.d_v; ++c) EXPECT_EQ(E.out[P.oi(1, 0, h, c)], 0);
  }
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long h = 0; h < P.h_q; ++h) {
        EXPECT_LE(abs(Et.lse[T.li(b, h, i)] - E.lse[P.li(b, h, i)]), tiny) << "item " << b << " row " << i;
        for (long c = 0; c < P.d_v; ++c)
          EXPECT_LE(abs(Et.out[T.oi(b, i, h, c)] - E.out[P.oi(b, i, h, c)]), tiny * (1 + abs(E.out[P.oi(b, i, h, c)])));
      }
  problem D = P;  // the sink dropped: every row moves
  D.sink.clear();
  const attend::exact Ed = attend::reference(D, empty_rows::zeros);
  EXPECT_GT(abs(Ed.lse[D.li(0, 0, 0)] - Et.lse[T.li(0, 0, 0)]), hp(0.01));
}

// The cap picked from the scores saturates them: doubling the queries moves
// the exact rows by no more than the stated move (each capped logit by at
// most delta, a bound in binary64 on c |tanh(2x/c) - tanh(x/c)|), while the
// same problem without its cap moves far past it (the law can fail).
TEST(AttendLaws, DoubledQueriesMoveASaturatedCapByLessThanTheStatedMove) {
  problem P = drawn(2, 2, 1, 3, 6, 4, 2);
  for (double& x : P.q) x *= 3;
  P.causal = true;
  P.q_start = {3, 1};
  P.lse = true;
  P.sink = {0.5, -1};
  P.softcap = attend_softcap_saturation::saturating_cap(P, 4);
  ASSERT_GE(P.softcap, 0x1p-23);
  ASSERT_EQ(std::ldexp(1.0, std::ilogb(P.softcap)), P.softcap) << "a power of two";
  const problem T = attend_softcap_saturation::doubled(P);
  const attend::exact E = attend::reference(P, empty_rows::zeros), Et = attend::reference(T, empty_rows::zeros);
  problem N = P, Nt = T;  // the cap ignored
  N.softcap = Nt.softcap = 0;
  const attend::exact En = attend::reference(N, empty_rows::zeros), Ent = attend::reference(Nt, empty_rows::zeros);
  hp moved_uncapped(0);
  for (long b = 0; b < P.batch; ++b)
    for (long i = 0; i < P.n_q; ++i)
      for (long h = 0; h < P.h_q; ++h) {
        const double delta = attend_softcap_saturation::largest_move(P, b, i, h);
        EXPECT_LE(delta, P.softcap * (1 + 0x1p-30));
        EXPECT_LE(abs(Et.lse[T.li(b, h, i)] - E.lse[P.li(b, h, i)]), hp(delta));
        moved_uncapped = std::max(moved_uncapped, hp(abs(Ent.lse[T.li(b, h, i)] - En.lse[P.li(b, h, i)])));
        for (long c = 0; c < P.d_v; ++c) {
          hp vmax(0);
          for (long j = 0; j < P.n_k; ++j)
            if (attend::visible(P, b, i, j)) vmax = std::max(vmax, hp(std::fabs(P.v[P.vi(b, j, 0, c)])));
          EXPECT_LE(abs(Et.out[T.oi(b, i, h, c)] - E.out[P.oi(b, i, h, c)]), hp(std::expm1(2 * delta)) * vmax);
        }
      }
  EXPECT_GT(moved_uncapped, hp(0.5)) << "without the cap, doubling the queries moves the rows";
  // scores in [1, 6]: c = 1/4, every score at least 4c from 0, each move at most 2c e^{-8}
  problem S = drawn(1, 1, 1, 1, 4, 1, 1);
  S.q = {1};
  S.k = {1, -2, 4, 6};
  S.scale = 1;
  S.softcap = attend_softcap_saturation::saturating_cap(S, 4);
  EXPECT_EQ(S.softcap, 0.25);
  EXPECT_EQ(attend_softcap_saturation::saturating_cap(S, 12), 1.0 / 16) << "the smallest score in [12, 24) c";
  const double d = attend_softcap_saturation::largest_move(S, 0, 0, 0);
  EXPECT_LE(d, 2 * 0.25 * std::exp(-8.0) * 1.0001);
  // the bound holds for the exact move of each key, the smallest score's the largest
  hp exact(0);
  for (double x : {1.0, -2.0, 4.0, 6.0}) exact = std::max(exact, hp(abs(hp(0.25) * (tanh(hp(8 * x)) - tanh(hp(4 * x))))));
  EXPECT_LE(exact, hp(d));
  EXPECT_GE(exact, hp(d) / 2) << "and is not loose";
}

}  // namespace
}  // namespace laws_attend_laws_test
}  // namespace pv::laws
