// Problem 4's printed numbers (claims/carousel_printed.h): each claim prints
// exactly its table's entries, and its certificates certify exactly them.
#include "claims/carousel_printed.h"
#include "printed_tables.h"

namespace pv::claims::test {
namespace claims_carousel_printed_test {  // this file's names: a unity build compiles several test files as one
namespace {

namespace P = printed_numbers;
std::string s(std::int64_t v) { return std::to_string(v); }

TEST(CarouselPrinted, PartAReadsItsTable) {
  const auto& t = P::carousel_a;
  const entries want = {{"a_deg", s(t.a_deg)}, {"b_deg", s(t.b_deg)}, {"gap_deg", s(t.gap_deg)}};
  EXPECT_EQ(printed_entries(run_claim("carousel.a")), want);
  EXPECT_EQ(certificate_entries("carousel.a"), want);
}

TEST(CarouselPrinted, PartBReadsItsTable) {
  const auto& t = P::carousel_b;
  const entries want = {{"t2_deg", s(t.t2_deg)},   {"t5_deg", s(t.t5_deg)},   {"t7_deg", s(t.t7_deg)},
                        {"t10_deg", s(t.t10_deg)}, {"gap_deg", s(t.gap_deg)}};
  EXPECT_EQ(printed_entries(run_claim("carousel.b")), want);
  entries certs = want;
  certs["gap_deg (7, 10)"] = s(t.gap_deg);
  EXPECT_EQ(certificate_entries("carousel.b"), certs);
}

TEST(CarouselPrinted, PartCReadsItsTable) {
  const auto& t = P::carousel_c;
  EXPECT_EQ(printed_entries(run_claim("carousel.c")),
            (entries{{"angle_15_unwrapped_deg", s(t.angle_15_unwrapped_deg)},
                     {"angle_diff_15_deg", s(t.angle_diff_15_deg)},
                     {"period", s(t.period)}}));
  EXPECT_EQ(certificate_entries("carousel.c"), (entries{{"angle_diff_15_deg (unwrapped)", s(t.angle_15_unwrapped_deg)},
                                                        {"angle_diff_15_deg", s(t.angle_diff_15_deg)},
                                                        {"period", s(t.period)}}));
}

}  // namespace
}  // namespace claims_carousel_printed_test
}  // namespace pv::claims::test
