// Problem 5 claims: closed forms with E = exp(1/sqrt 2) for the plain case,
// plain MPFR attention (no max subtraction) for the encoded and convolved ones.
#include "claims/common.h"
#include "claims_test_util.h"

namespace pv::claims::test {
namespace claims_problem5_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(Problem5Claims, NoEncodingClosedForm) {
  auto r = run_claim("p5.no-encoding");
  // Scores are 0, 1/sqrt2 or 2/sqrt2, so with E = exp(1/sqrt 2):
  // a -> (2E, 1 + E)/(2E + 1), b -> (1 + E, 2E)/(2E + 1), c -> (1 + E)/(2 + E) (both).
  const mp E = mexp(mp(1) / msqrt(mp(2)));
  const mp x = mp(2) * E / (mp(2) * E + mp(1)), y = (mp(1) + E) / (mp(2) * E + mp(1));
  const mp z = (mp(1) + E) / (mp(2) + E);
  const mp_rows abc = {{x, y}, {y, x}, {z, z}}, cab = {{z, z}, {x, y}, {y, x}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) {
      EXPECT_TRUE(agrees(element(r, "abc_out", i, j), abc[i][j])) << i << "," << j;
      EXPECT_TRUE(agrees(element(r, "cab_out", i, j), cab[i][j])) << i << "," << j;
    }
  EXPECT_TRUE(near_zero(value(r, "max_abs_diff_hp"), 1e-70));
  EXPECT_EQ(r.result, verdict::holds);
}

TEST(Problem5Claims, WhyFollowsThePropertyResult) {
  claim_context ctx;
  std::vector<property_result> props(1);
  props[0].id = "attention.permutation_equivariance";
  props[0].verdict = verdict::passed;
  props[0].cases = 1000;
  ctx.properties = &props;
  auto r = run_claim("p5.why", ctx);
  EXPECT_EQ(r.result, verdict::holds);
  EXPECT_EQ(int_value(r, "property_cases"), 1000);
  EXPECT_TRUE(near_zero(value(r, "weights_max_abs_diff_hp"), 1e-70));
  props[0].verdict = verdict::failed;
  EXPECT_EQ(run_claim("p5.why", ctx).result, verdict::fails);
  EXPECT_EQ(run_claim("p5.why", claim_context{}).result, verdict::not_checkable);
}

mp_rows encoded(const mp_rows& tokens, const mp_rows& pe) {
  mp_rows X = tokens;
  for (std::size_t i = 0; i < X.size(); ++i)
    for (std::size_t j = 0; j < 2; ++j) X[i][j] = X[i][j] + pe[i][j];
  return X;
}

TEST(Problem5Claims, WithEncodingByPlainAttention) {
  auto r = run_claim("p5.with-encoding");
  const mp_rows abc = {{1, 0}, {0, 1}, {1, 1}}, cab = {{1, 1}, {1, 0}, {0, 1}};
  const mp_rows pe = {{msin(mp(0)), mcos(mp(0))}, {msin(mp(1)), mcos(mp(1))}, {msin(mp(2)), mcos(mp(2))}};
  const mp_rows pr = {{mp("0"), mp("1")}, {mp("0.841"), mp("0.540")}, {mp("0.909"), mp("-0.416")}};
  auto c2 = mp_self_attention(encoded(abc, pe))[2], c0 = mp_self_attention(encoded(cab, pe))[0];
  auto c2r = mp_self_attention(encoded(abc, pr))[2], c0r = mp_self_attention(encoded(cab, pr))[0];
  for (int j = 0; j < 2; ++j) {
    EXPECT_TRUE(agrees(element(r, "c_at_2", j), c2[j]));
    EXPECT_TRUE(agrees(element(r, "c_at_0", j), c0[j]));
    EXPECT_TRUE(agrees(element(r, "c_at_2_rounded_pe", j), c2r[j]));
    EXPECT_TRUE(agrees(element(r, "c_at_0_rounded_pe", j), c0r[j]));
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) EXPECT_TRUE(agrees(element(r, "pe", i, j), pe[i][j]));  // sin 0 = 0 exactly
  EXPECT_TRUE(agrees(value(r, "c_moved_max_abs_diff"), mmax(mabs(c2[0] - c0[0]), mabs(c2[1] - c0[1]))));
  // Printed (1.502, 0.867) and (1.134, 1.620): rounding by printf of the doubles.
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f %.3f %.3f %.3f", c2[0].to_double(), c2[1].to_double(),
                c0[0].to_double(), c0[1].to_double());
  bool printed_agree = std::string(buf) == "1.502 0.867 1.134 1.620";
  EXPECT_EQ(r.result, printed_agree ? verdict::holds : verdict::holds_qualified) << buf;
}

TEST(Problem5Claims, ConvolutionFirstBreaksTheLaw) {
  auto r = run_claim("p5.conv-first");
  // The 1 x 3 grid: only the middle kernel row (dr = 1) meets the cells.
  auto conv = [](const mp_rows& X) {
    mp_rows Y(3, std::vector<mp>(2));
    for (int c = 0; c < 3; ++c)
      for (int o = 0; o < 2; ++o)
        for (int ci = 0; ci < 2; ++ci)
          for (int dc = 0; dc < 3; ++dc) {
            int cc = c + dc - 1;
            if (cc < 0 || cc > 2) continue;
            std::size_t idx = static_cast<std::size_t>(((o * 2 + ci) * 3 + 1) * 3 + dc);
            Y[c][o] += mp(fixed_entry(idx, idx / 9, 11)) * X[cc][ci];
          }
    return Y;
  };
  const mp_rows abc = {{1, 0}, {0, 1}, {1, 1}}, cab = {{1, 1}, {1, 0}, {0, 1}};
  auto A = mp_self_attention(conv(abc)), B = mp_self_attention(conv(cab));
  const int perm[3] = {2, 0, 1};
  mp diff = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) diff = mmax(diff, mabs(B[i][j] - A[perm[i]][j]));
  EXPECT_TRUE(agrees(value(r, "max_abs_diff_hp"), diff));
  EXPECT_EQ(r.result, verdict::holds);
}

}  // namespace
}  // namespace claims_problem5_test
}  // namespace pv::claims::test
