// A report that contradicts itself (reports/consistency.h): the rules hold for
// a law and a property as their writers leave them, and each edit a hand
// makes to a verdict, a summary or a diagnosis is named by file, entry and field.
#include "reports/consistency.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace reports_consistency_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::json;
using pv::reports::check_consistent_check_report;
using pv::reports::check_consistent_verify_report;

/// A law's record as blackbox/law_result.h writes it, with `verdict` and
/// the fields a failure has or not.
std::string law(const std::string& id, const std::string& verdict, int cases, bool failure, const std::string& finding,
                const std::string& error = "0.5", const std::string& bound = "1") {
  const std::string fail_text = failure ? "\"x = [1]\"" : "null";
  return R"({"id": ")" + id + R"(", "law": "l", "tolerance": "t", "verdict": ")" + verdict +
         R"(", "cases": )" + std::to_string(cases) + R"(, "seed": "7", "counterexample": )" + fail_text +
         R"(, "replay": )" + (failure ? "\"posverify check --law x\"" : "null") + R"(, "finding": )" +
         (finding.empty() ? "null" : "\"" + finding + "\"") + R"(, "base_id": "b", "dtype": "float32",
         "config": "c", "unsupported_cases": 0, "worst": {"error": )" + error + R"(, "bound": )" + bound +
         R"(, "ratio": 0.5, "where": "w", "replay": "r", "max_error": )" + error + R"(, "max_error_bound": )" + bound +
         "}}";
}

/// A check report of `laws` (JSON records) with `summary` and `diagnosis`.
json report(const std::string& laws, const std::string& summary, const std::string& diagnosis = "[]",
            const std::string& options = "{}") {
  return json::parse(R"({"seed": "7", "options": )" + options + R"(, "summary": )" + summary + R"(, "laws": [)" + laws +
                     R"(], "diagnosis": )" + diagnosis + "}");
}

/// The message check_consistent_check_report throws for `r`, or "".
std::string refusal(const json& r) {
  try {
    check_consistent_check_report(r, "s.json");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

const std::string pass = law("a[float32]", "passed", 3, false, "");
const std::string fail = law("b[float32]", "failed", 2, true, "case 1: too far", "3", "1");

TEST(ReportConsistency, AReportAsWrittenHolds) {
  EXPECT_EQ(refusal(report(pass + ", " + fail, R"({"failed": 1, "passed": 1})", R"([{"config": "c"}])")), "");
  // a pass may say where a shape was not bounded (blackbox/shapes.cpp)
  std::string noted = law("a[float32]", "passed", 3, false, "not bounded at this shape: 1x1");
  noted.insert(noted.size() - 1, R"(, "not_bounded_at": ["1x1"])");
  EXPECT_EQ(refusal(report(noted, R"({"passed": 1})")), "");
  EXPECT_EQ(refusal(report(law("u[float32]", "unsupported", 0, false, "", "0", "0"), R"({"unsupported": 1})")), "");
}

TEST(ReportConsistency, AVerdictRelabelledIsNamedWithItsField) {
  // a failure relabelled "passed": its counterexample is still there
  EXPECT_EQ(refusal(report(law("b[float32]", "passed", 2, true, "case 1: too far", "3", "1"), R"({"passed": 1})")),
            "s.json: laws[0] (b[float32]).counterexample: set under verdict \"passed\" (only a failed law has one): "
            "the report contradicts itself");
  // ... and cleared of it: the worst case still exceeds its tolerance
  const std::string worse = refusal(report(law("b[float32]", "passed", 2, false, "", "3", "1"), R"({"passed": 1})"));
  EXPECT_EQ(worse.rfind("s.json: laws[0] (b[float32]).worst.error: 3", 0), 0u) << worse;
  EXPECT_NE(worse.find(" exceeds worst.bound 1"), std::string::npos) << worse;
  // ... and of the finding only
  EXPECT_NE(refusal(report(law("b[float32]", "passed", 2, false, "case 1: too far"), R"({"passed": 1})"))
                .find("laws[0] (b[float32]).finding: set under verdict \"passed\""),
            std::string::npos);
  // a pass relabelled "failed" has no finding, counterexample or replay
  EXPECT_NE(refusal(report(law("a[float32]", "failed", 3, false, ""), R"({"failed": 1})"))
                .find("laws[0] (a[float32]).finding: null under verdict \"failed\""),
            std::string::npos);
  // no case evaluated, yet passed; cases evaluated, yet unsupported
  EXPECT_NE(refusal(report(law("a[float32]", "passed", 0, false, ""), R"({"passed": 1})")).find(".cases: 0 under"),
            std::string::npos);
  EXPECT_NE(refusal(report(law("a[float32]", "unsupported", 2, false, ""), R"({"unsupported": 1})"))
                .find(".cases: 2 under verdict \"unsupported\""),
            std::string::npos);
  // a verdict of another kind of record
  EXPECT_NE(refusal(report(law("a[float32]", "holds", 2, false, ""), R"({"holds": 1})")).find(".verdict: \"holds\" is not"),
            std::string::npos);
}

TEST(ReportConsistency, SummaryDiagnosisAndIdsAgreeWithTheLaws) {
  EXPECT_EQ(refusal(report(pass + ", " + fail, R"({"failed": 0, "passed": 2})")),
            "s.json: summary.failed: 0, but 1 laws listed are failed: the report contradicts itself");
  EXPECT_EQ(refusal(report("", R"({"failed": 3})")),
            "s.json: summary.failed: 3, but 0 laws listed are failed: the report contradicts itself");
  EXPECT_EQ(refusal(report(pass + ", " + fail, R"({"passed": 1})")),
            "s.json: summary.failed: missing, but 1 laws listed are failed: the report contradicts itself");
  EXPECT_EQ(refusal(report(pass, R"({"passed": 1})", R"([{"config": "c"}])")),
            "s.json: diagnosis[0].config: \"c\" is diagnosed, but no law of it failed: the report contradicts itself");
  EXPECT_NE(refusal(report(pass + ", " + pass, R"({"passed": 2})")).find("laws[1] (a[float32]).id: listed twice"),
            std::string::npos);
  EXPECT_NE(refusal(report(pass, R"({"passed": 1})", "[]", R"({"law": "z"})"))
                .find(".id: not a law of options.law \"z\""),
            std::string::npos);
  json other = report(pass, R"({"passed": 1})");
  other.set("seed", json::string("8"));
  EXPECT_NE(refusal(other).find("laws[0] (a[float32]).seed: 7, the run's is 8"), std::string::npos);
}

TEST(ReportConsistency, APropertyRelabelledIsNamed) {
  auto verify_refusal = [](const std::string& verdict, const std::string& ce, const std::string& replay) {
    const json r = json::parse(R"({"properties": [{"id": "p", "law": "l", "tolerance": "t", "verdict": ")" + verdict +
                               R"(", "cases": 5, "seed": "1", "counterexample": )" + ce + R"(, "replay": )" + replay +
                               "}]}");
    try {
      check_consistent_verify_report(r, "claims.json");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(verify_refusal("passed", "null", "null"), "");
  EXPECT_EQ(verify_refusal("failed", "\"x = 1\"", "\"posverify replay p 00\""), "");
  EXPECT_EQ(verify_refusal("gave-up", "\"too many discards\"", "null"), "");
  EXPECT_EQ(verify_refusal("passed", "\"x = 1\"", "\"posverify replay p 00\""),
            "claims.json: properties[0] (p).replay: set under verdict \"passed\" (only a failed property has one): "
            "the report contradicts itself");
  EXPECT_NE(verify_refusal("passed", "\"x = 1\"", "null").find("(p).counterexample: set under verdict \"passed\""),
            std::string::npos);
  EXPECT_NE(verify_refusal("failed", "null", "null").find("(p).counterexample: null under verdict \"failed\""),
            std::string::npos);
}

}  // namespace

}  // namespace reports_consistency_test
