// The attend calls' layouts (src/blackbox/attend_calls.h): a strided layout
// forced away from dense (attend.layout's), and what a kernel reading a
// strided buffer as if it were dense (batch, token, head) sees -- the
// hypothesis attend.layout's diagnosis checks.
#include "blackbox/attend_calls.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace blackbox_attend_calls_test {  // this file's names: a unity build compiles several test files as one
namespace {

using namespace pv::blackbox::attend_calls;

TEST(AttendCalls, AStridedLayoutWithGapsHasThemAndHeadsFirstIsItsTranspose) {
  pv::seeded g(7);
  for (int t = 0; t < 20; ++t) {
    const layout L = strided_layout(g, false, 1, 2, 3, 4, 5);
    EXPECT_GE(L.s[2], 6);  // at least one element after each head's 5
    EXPECT_GE(L.s[1], 4 * L.s[2] + 1);
    EXPECT_GE(L.s[0], 3 * L.s[1] + 1);
  }
  const layout H = strided_layout(g, true, 1, 2, 3, 4, 5);
  EXPECT_EQ(H.s[1], 5);  // tokens of a head contiguous
  EXPECT_EQ(H.s[2], 15);
  EXPECT_EQ(H.s[0], 60);
  EXPECT_EQ(H.span, 120u);
}

// A tensor [1][2 tokens][2 heads][2] laid out heads first: reading its
// buffer densely swaps token 1 of head 0 with token 0 of head 1.
TEST(AttendCalls, ReadingAStridedBufferDenselyGivesWhatAKernelIgnoringTheStridesSees) {
  const std::vector<double> x = {0, 1, 2, 3, 4, 5, 6, 7};  // [t][h][l]: (t0 h0) 0 1, (t0 h1) 2 3, (t1 h0) 4 5, (t1 h1) 6 7
  pv::seeded g(1);
  const layout H = strided_layout(g, true, 1, 1, 2, 2, 2);
  EXPECT_EQ(dense_reading(x, H, 1, 2, 2, 2), (std::vector<double>{0, 1, 4, 5, 2, 3, 6, 7}));
  EXPECT_EQ(dense_reading(x, dense_layout(1, 2, 2, 2), 1, 2, 2, 2), x) << "dense read densely is itself";
  const layout G = strided_layout(g, false, 1, 1, 2, 2, 2);
  const auto seen = dense_reading(x, G, 1, 2, 2, 2);
  EXPECT_EQ(seen[0], 0);
  EXPECT_EQ(seen[1], 1);
  EXPECT_TRUE(std::isnan(seen[2])) << "the gap after head 0's two values";
}

// The rows a kernel never wrote are those whose bytes are all still the
// sandbox's 0xFF fill; a NaN the kernel wrote, or one byte written, is not.
TEST(AttendCalls, UnwrittenRowsAreThoseStillHoldingTheFillBytes) {
  problem P;
  P.batch = 1, P.h_q = P.h_kv = 2, P.n_q = 3, P.n_k = 1, P.d = 1, P.d_v = 2;
  P.allocate();
  pv::seeded g(3);
  const layouts L{dense_layout(1, 3, 2, 1), dense_layout(1, 1, 2, 1), dense_layout(1, 1, 2, 2),
                  strided_layout(g, true, 1, 1, 3, 2, 2)};  // out heads first: [h][i][c]
  pv::sandbox::result R;
  R.out.assign(L.out.span * sizeof(float), 0xFF);
  const auto put = [&](long h, long i, long c, float x) {
    std::memcpy(R.out.data() + std::size_t(h * L.out.s[2] + i * L.out.s[1] + c) * sizeof(float), &x, sizeof x);
  };
  for (long h = 0; h < 2; ++h)
    for (long c = 0; c < 2; ++c) put(h, 0, c, 1.5f);       // row 0 written in both heads
  put(0, 1, 0, std::numeric_limits<float>::quiet_NaN());  // head 0, row 1: a NaN the kernel wrote
  unsigned char* b = R.out.data() + std::size_t(1 * L.out.s[2] + 1 * L.out.s[1] + 1) * sizeof(float);
  b[0] = 0xFE;                                             // head 1, row 1: one byte of it written
  const auto u = unwritten_rows<float>(P, L, R);
  ASSERT_EQ(u.size(), P.lse_size());
  for (long h = 0; h < 2; ++h) {
    EXPECT_EQ(u[P.li(0, h, 0)], 0) << h;
    EXPECT_EQ(u[P.li(0, h, 1)], 0) << h;
    EXPECT_EQ(u[P.li(0, h, 2)], 1) << h << ": never touched";
  }
  R.out.resize(4);
  EXPECT_TRUE(unwritten_rows<float>(P, L, R).empty()) << "no output returned: nothing to say";
}

}  // namespace
}  // namespace blackbox_attend_calls_test
