// The generators of properties/generators.h produce what they promise:
// sizes within bounds, valid permutations, distinct rows, float-representable
// entries, positions and shifts within range, FLUX grids of every shape.
#include "properties/generators.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

namespace properties_generators_test {  // this file's names: a unity build compiles several test files as one

namespace {

bool float_exact(double x) { return static_cast<double>(static_cast<float>(x)) == x; }

bool rows_distinct(const pv::matrix<double>& X) {
  for (std::size_t i = 0; i < X.rows; ++i)
    for (std::size_t j = 0; j < i; ++j) {
      bool same = true;
      for (std::size_t c = 0; c < X.cols && same; ++c) same = X(i, c) == X(j, c);
      if (same) return false;
    }
  return true;
}

RC_GTEST_PROP(generators, tokens_sizes_magnitudes_distinct_rows, ()) {
  const auto X = *pv::gen::tokens({2, 8, 1, 16, false, true});
  RC_ASSERT(X.rows >= 2u && X.rows <= 8u);
  RC_ASSERT(X.cols >= 1u && X.cols <= 16u);
  RC_ASSERT(X.a.size() == X.rows * X.cols);
  for (double v : X.a) {
    RC_ASSERT(float_exact(v));
    RC_ASSERT(std::abs(v) <= 8.0 * (1 + 1e-6));
  }
  RC_ASSERT(rows_distinct(X));
}

// The duplicate nudge used to compare a nudged row only with the rows after
// the one it matched: [a, b, b] with a one ulp above b became [a, b, a].
TEST(generators, distinct_rows_after_a_nudge_that_lands_on_an_earlier_row) {
  const float b = -1.0f, a = std::nextafter(b, 1e9f);
  pv::matrix<double> X(4, 1);
  X(0, 0) = a, X(1, 0) = b, X(2, 0) = b, X(3, 0) = a;
  pv::gen::make_rows_distinct(X, [](double x, double) {
    return static_cast<double>(std::nextafter(static_cast<float>(x), 1e9f));
  });
  EXPECT_TRUE(rows_distinct(X)) << X(0, 0) << " " << X(1, 0) << " " << X(2, 0) << " " << X(3, 0);
  EXPECT_EQ(X(0, 0), double(a));
  EXPECT_EQ(X(1, 0), double(b));
}

RC_GTEST_PROP(generators, tokens_even_width, ()) {
  const auto X = *pv::gen::tokens({1, 3, 1, 9, true, false});
  RC_ASSERT(X.cols % 2 == 0u);
  RC_ASSERT(X.cols >= 2u && X.cols <= 10u);
}

RC_GTEST_PROP(generators, generic_tokens_magnitudes, ()) {
  const bool positive = *rc::gen::arbitrary<bool>();
  const auto X = *pv::gen::generic_tokens({3, 8, 4, 16, true, 0.25, 1.0, positive});
  RC_ASSERT(X.rows >= 3u && X.rows <= 8u);
  RC_ASSERT(X.cols >= 4u && X.cols <= 16u && X.cols % 2 == 0u);
  for (double v : X.a) {
    RC_ASSERT(float_exact(v));
    RC_ASSERT(std::abs(v) >= 0.25 && std::abs(v) <= 1.0);
    if (positive) RC_ASSERT(v > 0);
  }
  RC_ASSERT(rows_distinct(X));
}

RC_GTEST_PROP(generators, permutations_are_valid, ()) {
  const auto n = *rc::gen::inRange<std::size_t>(1, 20);
  RC_ASSERT(pv::is_permutation_of_n(*pv::gen::uniform_permutation(n)));
  RC_ASSERT(pv::is_permutation_of_n(*pv::gen::permutation_of(n)));
  if (n >= 2) {
    const auto p = *pv::gen::nonidentity_permutation(n);
    RC_ASSERT(pv::is_permutation_of_n(p));
    bool moved = false;
    for (std::size_t i = 0; i < n; ++i) moved = moved || p[i] != i;
    RC_ASSERT(moved);
  }
}

TEST(generators, chapter_order_and_all_permutations_of_three_appear) {
  std::set<pv::permutation> seen3;
  bool chapter = false;
  for (int s = 0; s < 400; ++s) {
    const auto p6 = pv::gen::permutation_of(6)(rc::Random(s), 50).value();
    chapter = chapter || p6 == pv::chapter_six_cell_order();
    seen3.insert(pv::gen::uniform_permutation(3)(rc::Random(s), 100).value());
  }
  EXPECT_TRUE(chapter);
  EXPECT_EQ(seen3.size(), 6u);
}

RC_GTEST_PROP(generators, positions_and_shifts_in_range, ()) {
  const auto p = *pv::gen::position_int();
  RC_ASSERT(p >= 0 && p <= (1 << 20));
  const auto s = *pv::gen::shift_int();
  RC_ASSERT(std::abs(s) <= (1 << 20));
  const double pd = *pv::gen::position();
  RC_ASSERT(pd >= 0 && pd <= double(1 << 20) && pd == std::floor(pd));
}

TEST(generators, large_positions_reach_two_to_the_twenty) {
  std::int64_t largest = 0;
  for (int s = 0; s < 2000; ++s)
    largest = std::max(largest, pv::gen::position_int()(rc::Random(s), 100).value());
  EXPECT_GT(largest, 1 << 19);
}

RC_GTEST_PROP(generators, speeds_and_bases, ()) {
  const auto w = *pv::gen::speeds(1, 8);
  RC_ASSERT(w.size() >= 1u && w.size() <= 8u);
  for (double v : w) RC_ASSERT(v >= 1.0 / 1024 && v <= 1.0 && float_exact(v));
  const double b = *pv::gen::base();
  RC_ASSERT(b >= 10.0 * (1 - 1e-6) && b <= 1e6 * (1 + 1e-6) && float_exact(b));
  const auto r = *pv::gen::rope_1d(2, 16);
  RC_ASSERT(r.d % 2 == 0u && r.d >= 2u && r.d <= 16u);
  if (!r.ladder) RC_ASSERT(r.speeds.size() * 2 == r.d);
  RC_ASSERT(pv::gen::layout<double>(r).head_dim == r.d);
}

RC_GTEST_PROP(generators, flux_configs_and_grids, ()) {
  const auto f = *pv::gen::flux_config();
  RC_ASSERT(f.axes_dim.size() == 3u);
  for (auto a : f.axes_dim) RC_ASSERT(a % 2 == 0u && a >= 2u);
  const auto L = pv::gen::layout<double>(f);
  RC_ASSERT(L.head_dim == f.axes_dim[0] + f.axes_dim[1] + f.axes_dim[2]);
  const auto g = *pv::gen::flux_grid(8);
  RC_ASSERT(g.h >= 1u && g.h <= 8u && g.w >= 1u && g.w <= 8u);
  const auto g2 = *pv::gen::flux_grid_min(2, 3, 5);
  RC_ASSERT(g2.h >= 2u && g2.h <= 5u && g2.w >= 3u && g2.w <= 5u);
}

TEST(generators, grids_of_every_shape_and_the_real_flux_layout_appear) {
  std::set<std::pair<std::size_t, std::size_t>> shapes;
  bool full = false;
  for (int s = 0; s < 3000; ++s) {
    const auto g = pv::gen::flux_grid(8)(rc::Random(s), 100).value();
    shapes.insert({g.h, g.w});
    full = full || pv::gen::flux_config()(rc::Random(s), 100).value().axes_dim ==
                       std::vector<std::size_t>{16, 56, 56};
  }
  EXPECT_EQ(shapes.size(), 64u);  // every H x W in 1..8, square or not
  EXPECT_TRUE(full);
}

RC_GTEST_PROP(generators, kernels, ()) {
  const auto ci = *rc::gen::inRange<std::size_t>(1, 4), co = *rc::gen::inRange<std::size_t>(1, 4);
  const auto k = *pv::gen::flip_asymmetric_kernel(ci, co);
  RC_ASSERT(k.w.size() == ci * co * 9 && k.bias.size() == co);
  for (std::size_t o = 0; o < co; ++o)
    for (std::size_t i = 0; i < ci; ++i)
      for (int dc = 0; dc < 3; ++dc) {
        RC_ASSERT(k.at(o, i, 2, dc) - k.at(o, i, 0, dc) >= 0.125);
        RC_ASSERT(float_exact(k.at(o, i, 2, dc)));
      }
  const auto kp = *pv::gen::kernel(ci, co, true);
  for (double v : kp.w) RC_ASSERT(v >= 0.25 && v <= 1.0);
}

}  // namespace

}  // namespace properties_generators_test
