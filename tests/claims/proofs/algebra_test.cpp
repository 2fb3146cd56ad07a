// Exact algebra: Pythagorean instances with difference exactly 0, and the
// grid argument from instances to all angles; planted false laws rejected.
#include "claims/proofs/algebra.h"

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

namespace pv::proofs {
namespace claims_proofs_algebra_test {  // this file's names: a unity build compiles several test files as one
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print(const algebraic_result& r) {
  std::cout << r.name << ": degrees";
  for (std::size_t v = 0; v < r.vars.size(); ++v) std::cout << " " << r.vars[v] << "<=" << r.degree[v];
  std::cout << ", " << r.points << " grid points, " << (r.holds ? "proved" : "REJECTED") << "\n";
}

TEST(ExactAlgebra, PythagoreanLawsHoldWithZeroDifference) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto rs = pythagorean_laws();
  ASSERT_EQ(rs.size(), 5u);
  for (const auto& r : rs) {
    EXPECT_TRUE(r.exact_zero) << r.name << ": " << r.counterexample;
    EXPECT_GT(r.instances, 0);
  }
  std::cout << "pythagorean laws: " << seconds_since(t0) << " s\n";
}

TEST(ExactAlgebra, PlantedSineSignFaultGivesNonZeroDifference) {
  const auto rs = pythagorean_laws(/*flip_sine=*/true);
  // The faulty "rotation" is not orthogonal: shift invariance, norm and the
  // FLUX decomposition must all see a non-zero difference.
  EXPECT_FALSE(rs[0].exact_zero);
  EXPECT_FALSE(rs[2].exact_zero);
  EXPECT_FALSE(rs[3].exact_zero);
}

TEST(Algebraic, RopeLawsForAllAngles) {
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& r : rope_algebraic_laws()) {
    print(r);
    EXPECT_FALSE(r.too_large) << r.name;
    EXPECT_TRUE(r.holds) << r.name << ": " << r.counterexample;
  }
  std::cout << "rope algebraic: " << seconds_since(t0) << " s\n";
}

TEST(Algebraic, FluxDecompositionForAllAngles) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = flux_decomposition_law();
  print(r);
  EXPECT_TRUE(r.holds) << r.counterexample;
  EXPECT_EQ(r.points, 5 * 5 * 5 * 3 * 3 * 3);
  std::cout << "flux algebraic: " << seconds_since(t0) << " s\n";
}

TEST(Algebraic, SinusoidShiftMapForAllAngles) {
  for (const auto& r : sinusoid_shift_laws()) {
    print(r);
    EXPECT_TRUE(r.holds) << r.counterexample;
  }
}

TEST(Algebraic, DegreeBoundsOfTheShiftLaw) {
  const auto r = rope_algebraic_laws().front();
  // gamma enters twice (query and key), alpha and beta once, vectors linearly.
  EXPECT_EQ(r.degree, (std::vector<int>{2, 2, 4, 1, 1, 1, 1}));
  EXPECT_EQ(r.points, 3 * 3 * 5 * 2 * 2 * 2 * 2);
}

TEST(Algebraic, PlantedFalseShiftLawIsRejected) {
  const auto r = planted_false_shift_law();
  print(r);
  EXPECT_FALSE(r.holds);
  EXPECT_FALSE(r.counterexample.empty());
}

TEST(Algebraic, PolynomialVanishingOnAllButOneGridValueIsRejected) {
  // x (x - 1) (x + 1) vanishes at 0, 1, -1 but has degree 3: the grid has 4
  // values, and the fourth (x = 2) must catch it.
  law_variables v{{"x"}, {false}};
  const auto r = prove_identity("x^3 - x = 0", v, [](const law_point& p) {
    const auto& x = p.x[0];
    return x * x * x - x;
  });
  EXPECT_EQ(r.degree, std::vector<int>{3});
  EXPECT_FALSE(r.holds);
  EXPECT_NE(r.counterexample.find("x=2"), std::string::npos);
}

}  // namespace
}  // namespace claims_proofs_algebra_test
}  // namespace pv::proofs
