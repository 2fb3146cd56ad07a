// blackbox/declines.h: what a call is declined under, and which declines a
// run contradicts.
#include "blackbox/declines.h"

#include <gtest/gtest.h>

namespace pv::blackbox {
namespace blackbox_declines_test {  // this file's names: a unity build compiles several test files as one
namespace {

law_result law(const std::string& id, pv::verdict v, std::map<std::string, int> declined,
               std::set<std::string> ran) {
  law_result r;
  r.id = r.base_id = id;
  r.verdict = v;
  r.declined = std::move(declined);
  r.ran = std::move(ran);
  return r;
}

const std::string kF64 = "attention() on float64";

TEST(Declarations, SizesAndValuesAreNotPartOfIt) {
  const auto small = attention_call(probe_matrix<double>(2, 4), probe_matrix<double>(3, 4), probe_matrix<double>(3, 4));
  const auto large = attention_call(probe_matrix<double>(70, 32), probe_matrix<double>(90, 32), probe_matrix<double>(90, 8));
  EXPECT_EQ(declaration_of(small), kF64);
  EXPECT_EQ(declaration_of(large), kF64);
  const auto f32 = attention_call(probe_matrix<float>(2, 4), probe_matrix<float>(3, 4), probe_matrix<float>(3, 4));
  EXPECT_EQ(declaration_of(f32), "attention() on float32");
}

TEST(Declarations, ARopeConfigurationIsAndItsPositionsAreNot) {
  const auto cfgs = rope_configs();
  ASSERT_GE(cfgs.size(), 2u);
  const std::size_t d0 = std::size_t(cfgs[0].c.head_dim), n0 = std::size_t(cfgs[0].c.n_axes);
  const auto x = probe_matrix<double>(1, d0);
  const auto a = rope_call(cfgs[0].c, x, std::vector<double>(n0, 0.0));
  const auto b = rope_call(cfgs[0].c, x, std::vector<double>(n0, 5000.0));
  EXPECT_EQ(declaration_of(a), declaration_of(b));
  const auto c = rope_call(cfgs[1].c, probe_matrix<double>(1, std::size_t(cfgs[1].c.head_dim)),
                           std::vector<double>(std::size_t(cfgs[1].c.n_axes), 0.0));
  EXPECT_NE(declaration_of(a), declaration_of(c));
  EXPECT_NE(declaration_of(a).find("rope() on float64, configuration head_dim " + std::to_string(d0)), std::string::npos)
      << declaration_of(a);
  pv_rope_config theta = cfgs[0].c;  // one member changed: another configuration
  theta.theta *= 2;
  EXPECT_NE(declaration_of(rope_call(theta, x, std::vector<double>(n0, 0.0))), declaration_of(a));
}

TEST(JudgeDeclines, ADeclineOfWhatAnotherLawRanMakesItInsufficient) {
  std::vector<law_result> v = {law("a", verdict::unsupported, {{kF64, 17}}, {}),
                               law("b", verdict::passed, {}, {kF64})};
  judge_declines(v, nullptr);
  EXPECT_EQ(v[0].verdict, verdict::insufficient);
  EXPECT_NE(v[0].finding.find("declined 17 calls of " + kF64), std::string::npos) << v[0].finding;
  EXPECT_NE(v[0].finding.find("configuration in b:"), std::string::npos) << v[0].finding;
  EXPECT_EQ(v[1].verdict, verdict::passed);
}

TEST(JudgeDeclines, ADeclineOfWhatTheLawItselfRanMakesItInsufficient) {
  std::vector<law_result> v = {law("a", verdict::passed, {{kF64, 1}}, {kF64})};
  judge_declines(v, nullptr);
  EXPECT_EQ(v[0].verdict, verdict::insufficient);
  EXPECT_NE(v[0].finding.find("declined 1 call of"), std::string::npos) << v[0].finding;
  EXPECT_NE(v[0].finding.find("in other cases of this law"), std::string::npos) << v[0].finding;
}

TEST(JudgeDeclines, TheProbeCountsAsHavingRun) {
  std::vector<law_result> v = {law("a", verdict::unsupported, {{kF64, 3}}, {})};
  const std::set<std::string> probed = {kF64};
  judge_declines(v, &probed);
  EXPECT_EQ(v[0].verdict, verdict::insufficient);
  EXPECT_NE(v[0].finding.find("in the probe"), std::string::npos) << v[0].finding;
}

TEST(JudgeDeclines, ADeclarationNeverRunIsADeclineOfADtypeOrConfiguration) {
  const std::string f32 = "attention() on float32";
  std::vector<law_result> v = {law("a", verdict::unsupported, {{f32, 5}}, {}),
                               law("b", verdict::passed, {{f32, 2}}, {kF64})};
  const std::set<std::string> probed = {kF64};
  judge_declines(v, &probed);
  EXPECT_EQ(v[0].verdict, verdict::unsupported);
  EXPECT_EQ(v[1].verdict, verdict::passed);
  EXPECT_TRUE(v[0].finding.empty());
}

TEST(JudgeDeclines, AFailedLawStaysFailed) {
  std::vector<law_result> v = {law("a", verdict::failed, {{kF64, 3}}, {kF64})};
  v[0].finding = "case 4: wrong";
  judge_declines(v, nullptr);
  EXPECT_EQ(v[0].verdict, verdict::failed);
  EXPECT_EQ(v[0].finding, "case 4: wrong");
}

}  // namespace
}  // namespace blackbox_declines_test
}  // namespace pv::blackbox
