// The proof attachments: each names a catalogued claim, adds fields under
// extra, and leaves the claim's values, printed figures and verdict alone.
#include "claims/registry.h"

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <set>

namespace claims_proofs_attach_test {  // this file's names: a unity build compiles several test files as one

namespace {

TEST(ProofAttachments, AttachToCataloguedClaimsWithoutTouchingValues) {
  std::set<std::string> ids;
  for (const auto& e : pv::claims::catalogue()) ids.insert(e.id);
  std::set<std::string> attached;
  for (const auto& pf : pv::claims::proofs()) {
    if (pf.name.empty()) continue;
    ASSERT_TRUE(ids.count(pf.claim_id)) << pf.claim_id;
    pv::claim_result r = pv::claims::make(pf.claim_id, "stand-in");
    r.values.set("v", pv::json::integer(7));
    r.printed.set("v", pv::json::string("7"));
    r.result = pv::verdict::holds_qualified;
    const auto values = r.values.dump(), printed = r.printed.dump();
    const auto t0 = std::chrono::steady_clock::now();
    pf.attach(pv::claims::claim_context{}, r);
    std::cout << pf.claim_id << " / " << pf.name << ": "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s\n";
    EXPECT_EQ(r.values.dump(), values) << pf.claim_id;
    EXPECT_EQ(r.printed.dump(), printed) << pf.claim_id;
    EXPECT_EQ(r.result, pv::verdict::holds_qualified) << pf.claim_id;
    EXPECT_GT(r.extra.size(), 0u) << pf.claim_id;
    attached.insert(pf.claim_id);
  }
  // The claims that carry a proof or a certificate.
  for (const char* id : {"perm.six-cells", "rope.example-30deg", "additive.example", "p5.no-encoding",
                         "p5.with-encoding", "sinusoid.wavelengths", "carousel.a", "carousel.b",
                         "carousel.c", "rope.relative", "flux.separate-offsets", "sinusoid.linear-shift"})
    EXPECT_TRUE(attached.count(id)) << id;
}

TEST(ProofAttachments, SeveralProofsShareOneClaim) {
  pv::claim_result r = pv::claims::make("perm.six-cells", "stand-in");
  for (const auto& pf : pv::claims::proofs())
    if (pf.claim_id == "perm.six-cells") pf.attach(pv::claims::claim_context{}, r);
  ASSERT_NE(r.extra.find("proof"), nullptr);
  EXPECT_NE(r.extra.find("proof")->find("exhaustive_orders"), nullptr);
  ASSERT_NE(r.extra.find("bitwise_study"), nullptr);
  const auto* rows = r.extra.find("bitwise_study")->find("rows");
  ASSERT_NE(rows, nullptr);
  EXPECT_EQ(rows->size(), 4u);
}

}  // namespace

}  // namespace claims_proofs_attach_test
