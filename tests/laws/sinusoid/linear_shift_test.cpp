// sinusoid.linear_shift written once (laws/sinusoid/linear_shift.h): the
// white-box judge holds on pv::sinusoid in float32 and float64, and the
// black-box body accepts a kernel's correct rows and catches a wrong speed.
#include "laws/sinusoid/linear_shift.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pv::laws::linear_shift {
namespace laws_sinusoid_linear_shift_test {  // this file's names: a unity build compiles several test files as one
namespace {

template <class T>
outcome white_box(std::size_t d, double m, double k) {
  return evaluate(geometric_speeds<T>(d, T(10000)), m, k, [](const entry<T>&) { return true; });
}

TEST(LinearShiftLaw, PvSinusoidMeetsTheWhiteBoxBound) {
  EXPECT_TRUE(white_box<float>(16, 3339, 80).within);
  EXPECT_TRUE(white_box<double>(56, 7869, 100).within);
  EXPECT_EQ(white_box<double>(8, 5, 7).entries, 8u);
  // the visitor sees p(m + k) and M_k p(m) and may stop
  std::size_t seen = 0;
  evaluate(geometric_speeds<double>(8, 10000.0), 5, 7, [&](const entry<double>& e) {
    EXPECT_LE(e.diff, e.bound);
    return ++seen < 3;
  });
  EXPECT_EQ(seen, 3u);
}

/// A kernel's rows p(m), p(m + k) in float64 with speeds base^(-2i/d) times `speed_factor`.
matrix<double> kernel_rows(std::size_t d, double m, double k, double speed_factor) {
  matrix<double> out(2, d);
  for (std::size_t r = 0; r < 2; ++r)
    for (std::size_t i = 0; i < d / 2; ++i) {
      const double w = std::pow(10000.0, -double(2 * i) / double(d)) * speed_factor;
      const double a = (r == 0 ? m : m + k) * w;
      out(r, 2 * i) = std::sin(a);
      out(r, 2 * i + 1) = std::cos(a);
    }
  return out;
}

outcome black_box(const matrix<double>& out, double k) {
  const std::size_t d = out.cols;
  const auto w = geometric_speeds<hp>(d, hp(10000));
  const hp u = convert<hp>(unit_roundoff<double>());
  const double pos[2] = {100, 100 + k};
  return compare_on_kernel(
      out, sinusoid_shift_map(w, k), w.size(),
      [&](std::size_t r, std::size_t q) {
        return sinusoid_reference::entry_tolerance(convert<hp>(pos[r]), w[q], 8 * u, u, u, false);
      },
      [](const entry<double, hp>&) { return true; });
}

TEST(LinearShiftLaw, BlackBoxBodyAcceptsCorrectRowsAndCatchesAWrongSpeed) {
  EXPECT_TRUE(black_box(kernel_rows(12, 100, 37, 1), 37).within);
  EXPECT_FALSE(black_box(kernel_rows(12, 100, 37, 1.01), 37).within);
  EXPECT_EQ(black_box(kernel_rows(12, 100, 37, 1), 37).entries, 12u);
  EXPECT_NE(any_speed_tolerance_rule().find("t(m+k) + (|cos k w| + |sin k w|) t(m)"), std::string::npos);
}

}  // namespace
}  // namespace laws_sinusoid_linear_shift_test
}  // namespace pv::laws::linear_shift
