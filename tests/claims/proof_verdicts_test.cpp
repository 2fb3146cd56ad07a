// Proof and certificate verdicts count: an attached proof that
// comes out disproved where proved was expected makes the claim fail, naming
// the proof; an expected disproved (another reading tried on purpose) does not.
#include "claims/registry.h"
#include "support/verify_run.h"

#include <gtest/gtest.h>

namespace pv::claims {
namespace claims_proof_verdicts_test {  // this file's names: a unity build compiles several test files as one
namespace {

json proof(const std::string& verdict, const std::string& expected = "") {
  json j = json::object();
  j.set("verdict", json::string(verdict));
  if (!expected.empty()) j.set("expected", json::string(expected));
  return j;
}

claim_result holding() {
  claim_result r;
  r.id = "x";
  r.result = verdict::holds_qualified;
  r.qualification = "the claim's own sentence";
  return r;
}

TEST(ProofVerdicts, UnexpectedDisprovedCertificateFailsTheClaim) {
  auto r = holding();
  json certs = json::object();
  certs.set("dot_2_5", proof("proved", "proved"));
  certs.set("dot_7_10", proof("disproved", "proved"));
  r.extra.set("certificate", certs);
  apply_proof_verdicts(r);
  EXPECT_EQ(r.result, verdict::fails);
  ASSERT_TRUE(r.qualification.has_value());
  EXPECT_NE(r.qualification->find("certificate/dot_7_10 (disproved, expected proved)"), std::string::npos)
      << *r.qualification;
  EXPECT_EQ(r.qualification->find("dot_2_5"), std::string::npos) << *r.qualification;
  EXPECT_NE(r.qualification->find("the claim's own sentence"), std::string::npos);
  ASSERT_NE(r.extra.find("proof_failures"), nullptr);
  EXPECT_EQ(r.extra.find("proof_failures")->size(), 1u);
}

TEST(ProofVerdicts, FailedExhaustiveProofFailsTheClaim) {
  auto r = holding();
  json p = json::object();
  json ex = json::object();
  ex.set("six_cells", proof("disproved"));
  p.set("exhaustive_orders", ex);
  r.extra.set("proof", p);
  apply_proof_verdicts(r);
  EXPECT_EQ(r.result, verdict::fails);
  EXPECT_NE(r.qualification->find("proof/exhaustive_orders/six_cells (disproved)"), std::string::npos)
      << *r.qualification;
}

TEST(ProofVerdicts, ExpectedDisprovedAndProvedLeaveTheClaim) {
  auto r = holding();
  json certs = json::object();
  certs.set("other_reading", proof("disproved", "disproved"));
  certs.set("main", proof("proved", "proved"));
  r.extra.set("certificate", certs);
  json p = json::object();
  p.set("algebra", proof("proved (algebraic)"));
  p.set("undecided_one", proof("undecided"));
  r.extra.set("proof", p);
  apply_proof_verdicts(r);
  EXPECT_EQ(r.result, verdict::holds_qualified);
  EXPECT_EQ(*r.qualification, "the claim's own sentence");
  EXPECT_EQ(r.extra.find("proof_failures"), nullptr);
}

TEST(ProofVerdicts, ExpectedDisprovedThatComesOutProvedFails) {
  auto r = holding();
  json certs = json::object();
  certs.set("other_reading", proof("proved", "disproved"));
  r.extra.set("certificate", certs);
  apply_proof_verdicts(r);
  EXPECT_EQ(r.result, verdict::fails);
}

// A run of verify runs every proof: none fails today (the claims of the
// fixture's run, tests/support/verify_run.h).
TEST(ProofVerdicts, EveryAttachedProofOfTheChapterComesOutAsExpected) {
  json report;
  try {
    report = json::parse(pv::test::slurp(pv::test::verify_run_dir() + "/claims.json"));
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  const json* claims = report.find("claims");
  ASSERT_NE(claims, nullptr);
  EXPECT_EQ(claims->size(), catalogue().size());
  for (const auto& kv : claims->items())
    EXPECT_EQ(kv.second.find("proof_failures"), nullptr) << kv.second.find("id")->as_string();
}

}  // namespace
}  // namespace claims_proof_verdicts_test
}  // namespace pv::claims
