// Problem 5's printed numbers (claims/problem5_printed.h): each claim prints
// and compares exactly its table's entries, its certificates certify exactly
// them, and no other file types them.
#include "claims/problem5_printed.h"
#include "printed_tables.h"

namespace pv::claims::test {
namespace claims_problem5_printed_test {  // this file's names: a unity build compiles several test files as one
namespace {

namespace P = printed_numbers;

/// name[0], name[1] of a printed pair.
void add_pair(entries& e, const std::string& name, const P::printed_pair& p) {
  e[name + "[0]"] = p[0];
  e[name + "[1]"] = p[1];
}

std::vector<std::string> all_of(const std::vector<P::printed_pair>& pairs) {
  std::vector<std::string> v;
  for (const auto& p : pairs) v.insert(v.end(), {p[0], p[1]});
  return v;
}

TEST(Problem5Printed, NoEncodingReadsItsTable) {
  const auto& t = P::p5_no_encoding;
  const auto cab = t.cab_out();
  entries printed, certs;
  for (std::size_t i = 0; i < 3; ++i) {
    add_pair(printed, "abc_out[" + std::to_string(i) + "]", t.abc_out[i]);
    add_pair(printed, "cab_out[" + std::to_string(i) + "]", cab[i]);
    add_pair(certs, std::string("abc_out[") + "abc"[i] + "]", t.abc_out[i]);
    add_pair(certs, std::string("cab_out[") + "cab"[i] + "]", cab[i]);
  }
  const auto r = run_claim("p5.no-encoding");
  EXPECT_EQ(printed_entries(r), printed);
  EXPECT_EQ(printed_numbers_compared(r), 12);
  EXPECT_EQ(certificate_entries("p5.no-encoding"), certs);
  EXPECT_EQ(typed_elsewhere("problem5_printed.h", all_of({t.abc_out.begin(), t.abc_out.end()})),
            std::vector<std::string>{});
}

TEST(Problem5Printed, WithEncodingReadsItsTable) {
  const auto& t = P::p5_with_encoding;
  entries printed, certs;
  for (const std::string sfx : {"", "_rounded_pe"}) {
    add_pair(printed, "c_at_2" + sfx, t.c_at_2);
    add_pair(printed, "c_at_0" + sfx, t.c_at_0);
  }
  certs = printed;
  for (std::size_t m = 0; m < 3; ++m) {
    add_pair(printed, "pe[" + std::to_string(m) + "]", t.pe[m]);
    add_pair(certs, "pe_at_" + std::to_string(m), t.pe[m]);
  }
  const auto r = run_claim("p5.with-encoding");
  EXPECT_EQ(printed_entries(r), printed);
  EXPECT_EQ(printed_numbers_compared(r), 14);  // 4 exact, 4 with the rounded vectors, 6 of the vectors
  EXPECT_EQ(certificate_entries("p5.with-encoding"), certs);
  EXPECT_EQ(typed_elsewhere("problem5_printed.h", all_of({t.c_at_2, t.c_at_0, t.pe[0], t.pe[1], t.pe[2]})),
            std::vector<std::string>{});
}

}  // namespace
}  // namespace claims_problem5_printed_test
}  // namespace pv::claims::test
