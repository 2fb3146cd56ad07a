// ctest back-end of the properties: every registered property becomes one
// GoogleTest test, run by the same runner as `posverify verify`.
// POSVERIFY_CASES and POSVERIFY_SEED override the defaults (1000, 1).
#include "properties/runner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

class property_test : public ::testing::Test {
 public:
  explicit property_test(const pv::prop::property_def* p) : p_(p) {}
  void TestBody() override {
    pv::prop::run_options o;
    if (const char* c = std::getenv("POSVERIFY_CASES")) o.cases = std::atoi(c);
    if (const char* s = std::getenv("POSVERIFY_SEED")) o.seed = std::strtoull(s, nullptr, 10);
    auto r = pv::prop::run_property(*p_, o);
    RecordProperty("cases", r.cases);
    RecordProperty("seed", r.seed);
    if (r.verdict != pv::verdict::passed) {
      std::string msg = p_->id + " " + pv::to_string(r.verdict) + " after " + std::to_string(r.cases) +
                        " cases (property seed " + r.seed + ", run seed " +
                        std::to_string(o.seed) + ")\n";
      if (r.counterexample) msg += "counterexample:\n" + *r.counterexample + "\n";
      if (r.replay) msg += "replay: " + *r.replay + "\n";
      if (auto* rr = r.extra.find("rerun")) msg += "rerun: " + rr->as_string() + "\n";
      RecordProperty("replay", r.replay ? *r.replay : "");
      ADD_FAILURE() << msg;
    } else {
      EXPECT_GE(r.cases, o.cases);
    }
  }

 private:
  const pv::prop::property_def* p_;
};

std::string test_name(const std::string& id) {
  std::string s;
  for (char c : id) s += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (const auto& p : pv::prop::property_registry()) {
    const auto* def = &p;
    ::testing::RegisterTest("property", test_name(p.id).c_str(), nullptr, nullptr, __FILE__,
                            __LINE__, [def]() -> ::testing::Test* { return new property_test(def); });
  }
  return RUN_ALL_TESTS();
}
