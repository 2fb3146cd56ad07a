// attend.models (src/blackbox/attend_models.cpp, laws/attend/models.h): the
// built-in tiled kernel passes at the shapes of shipped models and the report
// gives each preset's problem as it ran; a mutant is caught there with its
// class named; a bound with no teeth is said, never a silent pass; an
// unknown preset is a usage error naming it; without a preset the law is
// not run.
#include "core/json.h"
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <string>

namespace blackbox_attend_models_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::plugin_test::out_dir;
using pv::plugin_test::plugin_map;
using pv::plugin_test::slurp;

std::string builtin(const std::string& n) { return plugin_map(POSVERIFY_BUILTIN_PLUGINS).at(n); }
std::string mutant(const std::string& n) { return plugin_map(POSVERIFY_MUTANT_PLUGINS).at(n); }

/// The law `id` of the report at `path` (null when absent).
const pv::json* law_of(const pv::json& j, const std::string& id) {
  for (const auto& kv : j.find("laws")->items())
    if (kv.second.find("id")->as_string() == id) return &kv.second;
  return nullptr;
}

std::string text_of(const pv::json* l, const char* field) {
  const auto* f = l ? l->find(field) : nullptr;
  return f && f->type() == pv::json::kind::string ? f->as_string() : std::string();
}

TEST(AttendModels, TheBuiltinPassesAtThreePresetsAndTheReportGivesTheirProblems) {
  const std::string dir = out_dir("attend-models-builtin");
  auto r = pv::test::run_posverify("check --impl " + builtin("attend_tiled") +
                                   " --attend-preset llama-3-8b-decode --attend-preset gpt-oss-20b"
                                   " --attend-preset flux.1-dev --law 'attend.models[float32]' --out " + dir);
  EXPECT_EQ(r.code, 0) << r.out;
  const auto j = pv::json::parse(slurp(dir + "/builtin-attend-tiled.json"));
  const auto* l = law_of(j, "attend.models[float32]");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(text_of(l, "verdict"), "passed") << text_of(l, "finding");
  EXPECT_EQ(l->find("cases")->as_integer(), 3);
  const auto& rows = l->find("presets")->items();
  ASSERT_EQ(rows.size(), 3u);
  // every capability declared: the cache lengths, the sinks, the window and GQA are in the problem
  const std::string p0 = rows[0].second.find("problem")->as_string(), p1 = rows[1].second.find("problem")->as_string();
  EXPECT_EQ(rows[0].second.find("preset")->as_string(), "llama-3-8b-decode");
  EXPECT_NE(p0.find("h_q 32, h_kv 8, n_q 1, n_k 8192"), std::string::npos) << p0;
  EXPECT_NE(p0.find("q_start [8191, 4999], k_len [8192, 5000], causal"), std::string::npos) << p0;
  EXPECT_NE(p1.find("h_q 64, h_kv 8"), std::string::npos) << p1;
  EXPECT_NE(p1.find("window left 127"), std::string::npos) << p1;
  EXPECT_NE(p1.find("a sink per head"), std::string::npos) << p1;
  EXPECT_EQ(rows[2].second.find("problem")->as_string().find("causal"), std::string::npos) << "FLUX.1 has no mask";
  for (const auto& row : rows) {
    EXPECT_EQ(row.second.find("rows_judged")->as_integer(), 6);
    EXPECT_TRUE(row.second.find("bounded")->as_bool());
  }
}

TEST(AttendModels, AMutantIsCaughtAtAModelsShapeWithItsClassNamed) {
  // heads 0 and 1 of gpt-oss's 64 read KV heads 0 and 0 (repeat), 0 and 1 (tile): a sampled row differs
  const std::string dir = out_dir("attend-models-gqa-tile");
  auto r = pv::test::run_posverify("check --impl " + mutant("attend_gqa_tile") +
                                   " --attend-preset gpt-oss-20b --law 'attend.models[float32]' --out " + dir);
  EXPECT_EQ(r.code, 1) << r.out;
  const auto j = pv::json::parse(slurp(dir + "/attend_gqa_tile.json"));
  const auto* l = law_of(j, "attend.models[float32]");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(text_of(l, "verdict"), "failed");
  EXPECT_NE(text_of(l, "diagnosis").find("GQA mapping"), std::string::npos) << text_of(l, "finding");
  // the replay names the preset, so that it draws the same case again
  EXPECT_NE(text_of(l, "replay").find("--attend-preset gpt-oss-20b"), std::string::npos) << text_of(l, "replay");
}

TEST(AttendModels, ABoundWithNoTeethIsSaidNeverASilentPass) {
  // bfloat16 storage (u = 2^-8) and logits of tens: e^{2D} - 1 exceeds 1, the
  // bound admits any output in the values' range on those rows
  const std::string dir = out_dir("attend-models-bf16");
  auto r = pv::test::run_posverify("check --impl " + builtin("attend_tiled") +
                                   " --attend-preset gpt-oss-20b --law 'attend.models[bfloat16]' --out " + dir);
  EXPECT_EQ(r.code, 0) << r.out;
  const auto j = pv::json::parse(slurp(dir + "/builtin-attend-tiled.json"));
  const auto* l = law_of(j, "attend.models[bfloat16]");
  ASSERT_NE(l, nullptr);
  const auto& row = l->find("presets")->items().at(0).second;
  ASSERT_FALSE(row.find("bounded")->as_bool()) << "the premise: some sampled row has no teeth in bfloat16";
  EXPECT_GT(row.find("rows_not_bounded")->as_integer(), 0);
  EXPECT_NE(text_of(l, "finding").find("not bounded here: gpt-oss-20b"), std::string::npos) << text_of(l, "finding");
  ASSERT_NE(l->find("not_bounded_at"), nullptr);
}

TEST(AttendModels, AnUnknownPresetIsAUsageErrorAndWithoutOneTheLawIsNotRun) {
  auto bad = pv::test::run_posverify("check --impl " + builtin("attend_tiled") + " --attend-preset llama-4 --out " +
                                     out_dir("attend-models-unknown"));
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("--attend-preset: 'llama-4' is not a preset (llama-3-8b-decode"), std::string::npos) << bad.out;
  // the quick profile has no preset: the law is not run, and asking for it says how to run it
  auto none = pv::test::run_posverify("check --impl " + builtin("attend_tiled") + " --law attend.models --out " +
                                      out_dir("attend-models-none"));
  EXPECT_EQ(none.code, 2) << none.out;
  EXPECT_NE(none.out.find("attend.models runs only with --profile models or --attend-preset NAME"), std::string::npos)
      << none.out;
}

}  // namespace
}  // namespace blackbox_attend_models_test
