// The sinusoid diagnosis (blackbox/diagnose_sinusoid.h): rows built by hand
// for each wrong way to compute (layout, exponent, base, equal speeds,
// offset positions) are named so, the reference's rows say nothing, and the
// sinusoid mutants get their cause through the whole check.
#include "blackbox/diagnose_sinusoid.h"
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace blackbox_diagnose_sinusoid_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::blackbox::sinusoid_finding;

/// Rows at positions 0 and 1: pair i at angle (m + offset) * speed(i), its
/// sine at sin_at(i) and cosine at cos_at(i).
std::pair<std::vector<double>, std::vector<double>> rows(std::size_t d, const std::function<double(std::size_t)>& speed,
                                                         bool swapped = false, bool halves = false,
                                                         double offset = 0) {
  std::vector<double> p0(d), p1(d);
  for (std::size_t i = 0; i < d / 2; ++i) {
    const std::size_t s = halves ? i : 2 * i + (swapped ? 1 : 0), c = halves ? d / 2 + i : 2 * i + (swapped ? 0 : 1);
    p0[s] = std::sin(offset * speed(i)), p0[c] = std::cos(offset * speed(i));
    p1[s] = std::sin((1 + offset) * speed(i)), p1[c] = std::cos((1 + offset) * speed(i));
  }
  return {p0, p1};
}

const double kBase = 10000;
double speed(std::size_t i, std::size_t d, double a = 2, double base = kBase) {
  return std::pow(base, -a * double(i) / double(d));
}

TEST(DiagnoseSinusoid, TheReferenceRowsSayNothing) {
  const auto [p0, p1] = rows(16, [](std::size_t i) { return speed(i, 16); });
  EXPECT_EQ(sinusoid_finding(p0, p1, 16, kBase, 1e-6), "");
}

TEST(DiagnoseSinusoid, LayoutsAreNamed) {
  const auto sw = rows(16, [](std::size_t i) { return speed(i, 16); }, true);
  const auto f = sinusoid_finding(sw.first, sw.second, 16, kBase, 1e-6);
  EXPECT_NE(f.find("sin and cos swapped), with speeds as asked"), std::string::npos) << f;
  const auto hv = rows(16, [](std::size_t i) { return speed(i, 16); }, false, true);
  const auto g = sinusoid_finding(hv.first, hv.second, 16, kBase, 1e-6);
  EXPECT_NE(g.find("halves (every sin in the first d/2 entries, then every cos)"), std::string::npos) << g;
}

TEST(DiagnoseSinusoid, SpeedsAreNamed) {
  const auto half = rows(16, [](std::size_t i) { return speed(i, 16, 1); });
  const auto f = sinusoid_finding(half.first, half.second, 16, kBase, 1e-6);
  EXPECT_NE(f.find("base^(-i/d) instead of base^(-2i/d) (the exponent is halved)"), std::string::npos) << f;
  const auto other = rows(16, [](std::size_t i) { return speed(i, 16, 2, 500000); });
  const auto g = sinusoid_finding(other.first, other.second, 16, kBase, 1e-6);
  EXPECT_NE(g.find("b^(-2i/d) with b = 5e+05 instead of base = 1e+04"), std::string::npos) << g;
  const auto equal = rows(16, [](std::size_t) { return 1.0; });
  const auto h = sinusoid_finding(equal.first, equal.second, 16, kBase, 1e-6);
  EXPECT_NE(h.find("every pair turns at the same speed 1"), std::string::npos) << h;
  // an error within the tolerance is none
  const auto near = rows(16, [](std::size_t i) { return speed(i, 16) * (1 + 1e-7); });
  EXPECT_EQ(sinusoid_finding(near.first, near.second, 16, kBase, 1e-6), "");
}

TEST(DiagnoseSinusoid, AnOffsetPositionIsNamed) {
  const auto off = rows(16, [](std::size_t i) { return speed(i, 16); }, false, false, 1);
  const auto f = sinusoid_finding(off.first, off.second, 16, kBase, 1e-6);
  EXPECT_NE(f.find("position 0 acts as 1 (positions offset)"), std::string::npos) << f;
}

TEST(DiagnoseSinusoid, SinusoidMutantsGetTheirCause) {
  const std::string dir = pv::plugin_test::out_dir("diagnose-sinusoid");
  const auto mutants = pv::plugin_test::plugin_map(POSVERIFY_MUTANT_PLUGINS);
  const std::pair<const char*, const char*> cases[] = {
      {"sin_half_exponent", "the exponent is halved"},
      {"sin_swapped", "sin and cos swapped), with speeds as asked"},
      {"sin_tail_arange", "exactly the last 1 rows, the partial tile past the last full tile of 16 rows"}};
  for (const auto& [m, expect] : cases) {
    auto r = pv::test::run_posverify("check --impl " + mutants.at(m) + " --law sinusoid --out " + dir);
    EXPECT_EQ(r.code, 1) << m << "\n" << r.out;
    EXPECT_NE(r.out.find("diagnosis: "), std::string::npos) << m << "\n" << r.out;
    EXPECT_NE(r.out.find(expect), std::string::npos) << m << "\n" << r.out;
  }
}

}  // namespace

}  // namespace blackbox_diagnose_sinusoid_test
