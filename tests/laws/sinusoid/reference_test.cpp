// sinusoid.reference written once (laws/sinusoid/reference.h): the per-entry
// tolerance t, a kernel's correct rows within it, and the (cos, sin) layout
// caught.
#include "laws/sinusoid/reference.h"
#include "numerics/sinusoid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

namespace pv::laws::sinusoid_reference {
namespace laws_sinusoid_reference_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(SinusoidReferenceLaw, ToleranceGrowsWithThePosition) {
  const hp u = hp(0x1p-24);
  const hp t0 = entry_tolerance(hp(0), hp(1), 8 * u, u, u, false);
  EXPECT_EQ(t0, trig_abs_error_at(u));
  const hp t = entry_tolerance(hp(1000), hp(0.5), 8 * u, u, u, false);
  EXPECT_EQ(t, 1000 * hp(0.5) * (9 * u) + 4 * u);
  EXPECT_GT(entry_tolerance(hp(1000), hp(0.5), 8 * u, u, u, true), t);  // stored coarser
}

matrix<float> rows(const std::vector<double>& pos, std::size_t d, bool swapped) {
  matrix<float> out(pos.size(), d);
  for (std::size_t r = 0; r < pos.size(); ++r)
    for (std::size_t i = 0; i < d / 2; ++i) {
      const float w = std::pow(10000.0f, -float(2 * i) / float(d));
      const float a = float(pos[r]) * w;
      out(r, 2 * i) = swapped ? std::cos(a) : std::sin(a);
      out(r, 2 * i + 1) = swapped ? std::sin(a) : std::cos(a);
    }
  return out;
}

outcome judge(const matrix<float>& out, const std::vector<double>& pos, bool* first_is_sin = nullptr) {
  const auto w = geometric_speeds<hp>(out.cols, hp(10000));
  const hp u = convert<hp>(unit_roundoff<float>());
  return compare_on_kernel(
      out, pos, w,
      [&](std::size_t r, std::size_t q) { return entry_tolerance(convert<hp>(pos[r]), w[q], 16 * u, u, u, false); },
      [&](const entry<float>& e) {
        if (first_is_sin && !(e.diff <= e.bound)) *first_is_sin = e.is_sin;
        return e.diff <= e.bound;
      });
}

TEST(SinusoidReferenceLaw, CorrectRowsPassAndTheSwappedLayoutFails) {
  const std::vector<double> pos = {0, 3, 517};
  EXPECT_TRUE(judge(rows(pos, 8, false), pos).within);
  EXPECT_EQ(judge(rows(pos, 8, false), pos).entries, 24u);
  bool is_sin = false;
  const auto o = judge(rows(pos, 8, true), pos, &is_sin);
  EXPECT_FALSE(o.within);
  EXPECT_TRUE(is_sin);  // the first entry compared, sin(0) = 0 against cos(0) = 1
  EXPECT_EQ(o.entries, 1u);
}

}  // namespace
}  // namespace laws_sinusoid_reference_test
}  // namespace pv::laws::sinusoid_reference
