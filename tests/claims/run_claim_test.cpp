// One claim that throws is that claim's `fails`, with the message:
// the rest of the report is still written.
#include "claims/registry.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace pv::claims {
namespace claims_run_claim_test {  // this file's names: a unity build compiles several test files as one
namespace {

// An id no proof is attached to, so only the claim's own function runs.
const catalogue_entry& first_entry() {
  static const catalogue_entry e{"test.run-claim", "test section"};
  return e;
}

TEST(RunClaim, AClaimThatThrowsFailsWithItsMessage) {
  const claim_def boom{first_entry().id, [](const claim_context&) -> claim_result {
                         throw std::runtime_error("table of printed numbers is empty");
                       }};
  const claim_result r = run_claim(first_entry(), boom, claim_context{});
  EXPECT_EQ(r.id, first_entry().id);
  EXPECT_EQ(r.section, first_entry().section);
  EXPECT_EQ(r.result, verdict::fails);
  ASSERT_TRUE(r.qualification.has_value());
  EXPECT_NE(r.qualification->find("table of printed numbers is empty"), std::string::npos)
      << *r.qualification;
}

TEST(RunClaim, AClaimThatReturnsKeepsItsVerdict) {
  const claim_def fine{first_entry().id, [](const claim_context&) {
                         claim_result r;
                         r.result = verdict::holds;
                         return r;
                       }};
  const claim_result r = run_claim(first_entry(), fine, claim_context{});
  EXPECT_EQ(r.result, verdict::holds);
  EXPECT_EQ(r.id, first_entry().id);
}

// Several proofs of one claim attach in the order of their names, not in the
// order their files registered them (which a unity build changes): the
// report's sections stay in one order.
TEST(RunClaim, ProofsAttachInTheOrderOfTheirNames) {
  auto& all = proofs();
  const std::size_t before = all.size();
  for (const char* name : {"second", "first"})
    all.push_back({first_entry().id, name, [name](const claim_context&, claim_result& r) {
                     json order = json::array();
                     if (const json* o = r.extra.find("order")) order = *o;
                     order.push(json::string(name));
                     r.extra.set("order", order);
                   }});
  const claim_def fine{first_entry().id, [](const claim_context&) { return claim_result{}; }};
  const claim_result r = run_claim(first_entry(), fine, claim_context{});
  all.resize(before);
  const json* o = r.extra.find("order");
  ASSERT_NE(o, nullptr);
  const std::string d = o->dump();
  ASSERT_NE(d.find("second"), std::string::npos) << d;
  EXPECT_LT(d.find("first"), d.find("second")) << d;
}

}  // namespace
}  // namespace claims_run_claim_test
}  // namespace pv::claims
