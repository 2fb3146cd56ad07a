// attention.reference written once (laws/attention/reference.h): the
// FlashAttention rule c R B + floor, R from the plain implementation, and the
// worst entry relative to its tolerance.
#include "laws/attention/reference.h"
#include "numerics/attention.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pv::laws::attention_reference {
namespace laws_attention_reference_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(AttentionReferenceLaw, ToleranceIsCRBPlusTheFloor) {
  EXPECT_EQ(tolerance(hp(3), hp(0.5), hp(0.25)), hp(flash_c * 3 * 0.5 + 0.25));
  matrix<double> V(2, 1);
  V(0, 0) = -6, V(1, 0) = 2;
  EXPECT_EQ(floor_of(V, hp(0.001)), floor_ulps * hp(0.001) * 6);
  hp R = 0;
  matrix<double> plain(1, 2);
  plain(0, 0) = 1.5, plain(0, 1) = 2;
  matrix<hp> ref(1, 2), B(1, 2);
  ref(0, 0) = 1, ref(0, 1) = 2;
  B(0, 0) = hp(0.25), B(0, 1) = 0;  // an entry with B = 0 does not count
  raise_plain_ratio(R, plain, ref, B);
  EXPECT_EQ(R, 2);
  EXPECT_NE(tolerance_rule().find("c = 2"), std::string::npos);
}

TEST(AttentionReferenceLaw, ReportsTheWorstEntryAndFailsBeyondIt) {
  matrix<hp> ref(2, 2), B(2, 2);
  for (std::size_t e = 0; e < 4; ++e) ref.a[e] = hp(double(e)), B.a[e] = hp(0.5);
  matrix<double> out(2, 2);
  for (std::size_t e = 0; e < 4; ++e) out.a[e] = double(e);
  out(1, 0) += 0.9;  // tolerance 2 * 1 * 0.5 + 0 = 1: within, the worst
  out(0, 1) += 0.2;
  auto o = compare(out, ref, B, hp(1), hp(0));
  EXPECT_TRUE(o.found);
  EXPECT_TRUE(o.within);
  EXPECT_EQ(o.row, 1u);
  EXPECT_EQ(o.col, 0u);
  EXPECT_EQ(o.bound, hp(1));
  o = compare(out, ref, B, hp(0.5), hp(0));  // tolerance 0.5: the worst entry is beyond it
  EXPECT_FALSE(o.within);
  EXPECT_EQ(o.row, 1u);
  EXPECT_EQ(tolerances(hp(0.5), B, hp(0.125)).a[3], hp(0.625));
}

TEST(AttentionReferenceLaw, PlainRoundedIsTheTextbookOrder) {
  matrix<double> q(2, 3), k(4, 3), v(4, 2);
  for (std::size_t i = 0; i < q.a.size(); ++i) q.a[i] = std::sin(0.9 * double(i) + 0.2);
  for (std::size_t i = 0; i < k.a.size(); ++i) k.a[i] = std::cos(1.4 * double(i));
  for (std::size_t i = 0; i < v.a.size(); ++i) v.a[i] = double(i) - 2.5;
  const auto same = [](double x) { return x; };
  // rounding nothing: pv::attention in float64, bit for bit
  const auto p = plain_rounded(q, k, v, same, same);
  const auto a = attention(q, k, v);
  for (std::size_t e = 0; e < p.a.size(); ++e) EXPECT_EQ(p.a[e], a.a[e]) << e;
  // rounding every operation to float32: a float32 result, not the float64 one
  const auto f = plain_rounded(q, k, v, same, [](double x) { return double(float(x)); });
  bool moved = false;
  for (std::size_t e = 0; e < f.a.size(); ++e) {
    EXPECT_EQ(f.a[e], double(float(f.a[e]))) << e;
    moved |= f.a[e] != a.a[e];
  }
  EXPECT_TRUE(moved);
}

}  // namespace
}  // namespace laws_attention_reference_test
}  // namespace pv::laws::attention_reference
