// Certified numbers: the verdict logic and the chapter's printed figures.
#include "claims/proofs/certificates.h"

#include <gtest/gtest.h>

#include <iostream>

namespace pv::proofs {
namespace claims_proofs_certificates_test {  // this file's names: a unity build compiles several test files as one
namespace {

TEST(Certify, RoundingVerdicts) {
  interval x = exact(866) / exact(1000);  // [0.866] enclosed
  EXPECT_EQ(certify_rounding("x", "", x, "0.866").verdict, pv::verdict::proved);
  EXPECT_EQ(certify_rounding("x", "", x, "0.867").verdict, pv::verdict::disproved);
  EXPECT_EQ(certify_rounding("x", "", x, "0.87").verdict, pv::verdict::proved);
  // A tie is never proved: 0.8665 may round either way.
  EXPECT_EQ(certify_rounding("x", "", exact(8665) / exact(10000), "0.866").verdict,
            pv::verdict::undecided);
  // An enclosure straddling 0.8655 is undecided.
  interval wide(0);
  mpfi_interv_d(wide.backend().data(), 0.8654, 0.8656);
  EXPECT_EQ(certify_rounding("x", "", wide, "0.866").verdict, pv::verdict::undecided);
  EXPECT_EQ(certify_rounding("x", "", -x, "\u22120.866").verdict, pv::verdict::proved);
  EXPECT_THROW(certify_rounding("x", "", x, "0.8a"), std::invalid_argument);
  EXPECT_EQ(certify_exact("n", "", exact(130), 130).verdict, pv::verdict::proved);
  EXPECT_EQ(certify_exact("n", "", exact(130), 131).verdict, pv::verdict::disproved);
  EXPECT_EQ(certify_exact("n", "", interval_pi(), 3).verdict, pv::verdict::disproved);
}

TEST(Certify, EnclosureStringsBracketTheValue) {
  interval p = interval_pi();
  EXPECT_EQ(lower_decimal(p, 10), "3.141592653e0");
  EXPECT_EQ(upper_decimal(p, 10), "3.141592654e0");
}

TEST(Certify, ChapterFiguresAreProvedUnderTheirFormula) {
  for (const auto& id : certified_claim_ids()) {
    for (const auto& c : chapter_certificates(id)) {
      std::cout << id << "  " << c.name << "  [" << lower_decimal(c.enclosure, 12) << ", "
                << upper_decimal(c.enclosure, 12) << "]  printed " << c.printed << "  "
                << to_string(c.verdict) << (c.why.empty() ? "" : "  (" + c.why + ")") << "\n";
      // The chapter's own readings must be proved; the alternative readings of
      // additive.example and the last wavelength at d = 512 are disproved.
      const bool alternative = c.name.find('[') != std::string::npos &&
                               c.name.find("_out[") == std::string::npos &&
                               c.name.find("_at_") == std::string::npos;
      const bool last = c.name.rfind("wavelength_last", 0) == 0;
      EXPECT_EQ(c.verdict, alternative || last ? pv::verdict::disproved : pv::verdict::proved)
          << id << " " << c.name;
    }
  }
}

TEST(Certify, ThirtyDegreeDotsCarryTheirExactValues) {
  const auto cs = chapter_certificates("rope.example-30deg");
  ASSERT_EQ(cs.size(), 3u);
  EXPECT_EQ(cs[0].exact, "0 + 0*sqrt(3)");
  EXPECT_EQ(cs[1].exact, "0 + 0*sqrt(3)");
  EXPECT_EQ(cs[2].exact, "0 + 1/2*sqrt(3)");
}

TEST(Certify, EncodingBreaksEveryNonIdentityOrder) {
  const auto j = p5_encoding_breaks_every_order();
  EXPECT_EQ(j.find("orders")->size(), 5u);
  EXPECT_EQ(j.find("verdict")->as_string(), "proved (MPFI, every non-identity order)");
}

TEST(Certify, WrongPrintedValueIsDisproved) {
  // Planted counterexample: the neighbour dot printed one unit too high.
  const auto c = certify_rounding("dot_3_4", "", rope30_dot(3, 4), "0.867");
  EXPECT_EQ(c.verdict, pv::verdict::disproved);
  const auto abc = p5_attention("abc", p5_encoding::none);
  EXPECT_EQ(certify_rounding("a0", "", abc[0][0], "0.803").verdict, pv::verdict::disproved);
}

}  // namespace
}  // namespace claims_proofs_certificates_test
}  // namespace pv::proofs
