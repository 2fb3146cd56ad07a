// --rope-config PAIRING:THETA:DIMS: what is accepted, and that blanks, signs,
// hex and non-finite values are errors naming the field (found by fuzzing
// and by the adversarial round).
#include "check/rope_model.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace {

std::string error_of(const std::string& spec) {
  try {
    pv::check::parse_rope_config(spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(RopeConfig, Accepted) {
  const auto r = pv::check::parse_rope_config("adjacent:10000:16,56,56");
  EXPECT_EQ(r.c.n_axes, 3);
  EXPECT_EQ(r.c.head_dim, 128);
  EXPECT_EQ(r.c.theta, 10000.0);
  EXPECT_EQ(pv::check::parse_rope_config("halves:5e5:128").c.theta, 500000.0);
}

TEST(RopeConfig, RejectedNamingTheField) {
  for (const char* theta : {" 1e4", "+1e4", "0x10", "inf", "nan", "1e999", "1", "abc", ""})
    EXPECT_NE(error_of(std::string("halves:") + theta + ":64").find("theta '" + std::string(theta) + "'"),
              std::string::npos)
        << theta;
  for (const char* dim : {" 2", "+2", "2 ", "0", "3", "4098", "00000000000000000002", "-2", ""})
    EXPECT_NE(error_of(std::string("halves:10000:") + dim).find("axis dimension '" + std::string(dim) + "'"),
              std::string::npos)
        << dim;
  EXPECT_NE(error_of("halves:10000:2,2,2,2,2").find("at most 4 axes"), std::string::npos);
  EXPECT_NE(error_of("halves:10000:4096,2").find("exceeds 4096"), std::string::npos);
  EXPECT_NE(error_of("sideways:10000:64").find("pairing 'sideways'"), std::string::npos);
  EXPECT_NE(error_of("halves").find("three fields"), std::string::npos);
}

}  // namespace
