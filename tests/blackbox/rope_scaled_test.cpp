// `posverify check` on the configurations of ABI version 3 (docs/rope-configs.md):
// the correct scaled_rope plugin passes every law of every configuration and
// preset, old (version 1 and 2) plugins are reported unsupported for them and
// never judged wrong, and the laws proper to a configuration catch its mutants.
#include "core/json.h"
#include "core/verdict.h"
#include "posverify/impl.h"
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace blackbox_rope_scaled_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::plugin_test::out_dir;
using pv::plugin_test::plugin_map;
using pv::plugin_test::slurp;

std::string builtin(const std::string& n) { return plugin_map(POSVERIFY_BUILTIN_PLUGINS).at(n); }
std::string mutant(const std::string& n) { return plugin_map(POSVERIFY_MUTANT_PLUGINS).at(n); }
std::string panel(const std::string& n) { return plugin_map(POSVERIFY_PANEL_PLUGINS).at(n); }
pv::test::run_result run(const std::string& args) { return pv::test::run_posverify(args); }

const char* kConfigs =
    " --rope-preset llama-3.1-8b --rope-preset phi-2 --rope-preset gpt-neox-20b --rope-preset qwen2-vl"
    " --rope-config 'halves:10000:128:yarn(16,32,1,4096)' --rope-config 'halves:10000:64:dynamic(2,4096,16384)'"
    " --rope-config 'adjacent:10000:64:linear(4)' --rope-config 'adjacent:10000:64:ntk(8)'"
    " --rope-config 'halves:10000:80:partial(32)+yarn(8,32,1,2048)'";

/// verdict of every law id in a report (a name no verdict has: nullopt)
std::map<std::string, std::optional<pv::verdict>> verdicts(const pv::json& j) {
  std::map<std::string, std::optional<pv::verdict>> v;
  for (const auto& kv : j.find("laws")->items())
    v[kv.second.find("id")->as_string()] = pv::parse_verdict(kv.second.find("verdict")->as_string());
  return v;
}

TEST(CheckScaled, TheCorrectPluginPassesEveryConfiguration) {
  const std::string dir = out_dir("scaled-correct");
  auto r = run("check --impl " + builtin("scaled_rope") + kConfigs + " --law rope --cases 20 --out " + dir);
  EXPECT_EQ(r.code, 0) << r.out;
  auto j = pv::json::parse(slurp(dir + "/builtin-scaled-rope.json"));
  auto v = verdicts(j);
  for (const auto& [id, verdict] : v)  // it declares no 16-bit dtype (none is run)
    if (id.find("/float16]") == std::string::npos && id.find("/bfloat16]") == std::string::npos) {
      EXPECT_EQ(verdict, pv::verdict::passed) << id;
    }
  for (const char* id : {"rope.partial.pass_through[phi-2/float32]", "rope.partial.pass_through[gpt-neox-20b/float64]",
                         "rope.yarn.temperature[user-halves-128-theta10000-yarn-16-32-1-4096/float32]",
                         "rope.dynamic_ntk.length_dependence[user-halves-64-theta10000-dynamic-2-4096-16384/float64]",
                         "rope.reference[llama-3.1-8b/float32]", "rope.shift_invariance[qwen2-vl/float32]",
                         "flux.per_axis_shift[qwen2-vl/float64]", "rope.composition[llama-3.1-8b/float64]"})
    EXPECT_EQ(v[id], pv::verdict::passed) << id;
  // YaRN: the laws that do not hold under a temperature are not run, the temperature law is
  EXPECT_EQ(v.count("rope.norm_preservation[user-halves-128-theta10000-yarn-16-32-1-4096/float32]"), 0u);
  // dynamic NTK: the figures of the length dependence (a finding about the configuration)
  bool found = false;
  for (const auto& kv : j.find("laws")->items()) {
    const std::string id = kv.second.find("id")->as_string();
    if (id.rfind("rope.dynamic_ntk.length_dependence[", 0) != 0 || id.find("16]") != std::string::npos) continue;
    const auto* f = kv.second.find("length_dependence");
    ASSERT_NE(f, nullptr);
    EXPECT_GT(std::stod(f->find("max_change_of_qk_over_norms")->dump()), 1e-3) << f->dump();
    found = true;
  }
  EXPECT_TRUE(found);
}

TEST(CheckScaled, OldPluginsAreUnsupportedForScaledConfigurations) {
  // abi_v2 turns by the plain ladder whatever the scaling: called, it would fail
  for (const std::string& lib : {std::string(POSVERIFY_ABI_V1), std::string(POSVERIFY_ABI_V2)}) {
    const std::string dir = out_dir("scaled-old-abi");
    auto r = run("check --impl " + lib + " --rope-preset llama-3.1-8b --rope-preset phi-2 --law rope --cases 5 --out " + dir);
    EXPECT_NE(r.out.find("abi"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
    for (const char* law : {"rope.reference[llama-3.1-8b/float32]", "rope.partial.pass_through[phi-2/float32]"})
      EXPECT_NE(r.out.find(law), std::string::npos) << law << "\n" << r.out;
    const std::string name = lib == POSVERIFY_ABI_V1 ? "abi-v1-ladder" : "abi-v2-plain";
    for (const auto& [id, verdict] : verdicts(pv::json::parse(slurp(dir + "/" + name + ".json"))))
      EXPECT_EQ(verdict, pv::verdict::unsupported) << name << " " << id;
  }
  // and on a plain configuration the version-2 plugin is called and passes
  const std::string dir = out_dir("scaled-old-abi-plain");
  auto p = run("check --impl " + std::string(POSVERIFY_ABI_V2) + " --rope-config halves:10000:64 --law rope.reference --cases 5 --out " + dir);
  EXPECT_EQ(p.code, 0) << p.out;
  EXPECT_NE(p.out.find("ok    rope.reference[user-halves-64-theta10000/float32]"), std::string::npos) << p.out;
}

TEST(CheckScaled, EachMutantFailsTheLawOfItsConfiguration) {
  struct mutant_case {
    const char* mutant;
    const char* flags;
    const char* law;
  };
  const mutant_case cases[] = {
      {"scaled_partial_wrong_components", "--rope-preset phi-2", "rope.partial.pass_through[phi-2/float32]"},
      {"scaled_partial_rotates_all", "--rope-preset gpt-neox-20b", "rope.partial.pass_through[gpt-neox-20b/float32]"},
      {"scaled_yarn_no_temperature", "--rope-config 'halves:10000:128:yarn(16,32,1,4096)'",
       "rope.yarn.temperature[user-halves-128-theta10000-yarn-16-32-1-4096/float32]"},
      {"scaled_dynamic_wrong_length", "--rope-config 'halves:10000:64:dynamic(2,4096,16384)'",
       "rope.dynamic_ntk.length_dependence[user-halves-64-theta10000-dynamic-2-4096-16384/float32]"},
      {"scaled_yarn_ramp_swapped", "--rope-config 'halves:10000:128:yarn(16,32,1,4096)'",
       "rope.reference[user-halves-128-theta10000-yarn-16-32-1-4096/float32]"},
      {"scaled_yarn_ramp_swapped", "--rope-preset llama-3.1-8b", "rope.reference[llama-3.1-8b/float32]"},
      {"scaled_no_ramp", "--rope-preset llama-3.1-8b", "rope.reference[llama-3.1-8b/float32]"},
      {"scaled_llama3_factors_swapped", "--rope-preset llama-3.1-8b", "rope.reference[llama-3.1-8b/float32]"},
      {"scaled_llama3_factor_inverted", "--rope-preset llama-3.1-8b", "rope.reference[llama-3.1-8b/float32]"},
      {"scaled_pairing_flipped", "--rope-preset phi-2", "rope.reference[phi-2/float32]"},
      {"scaled_mrope_axes_swapped", "--rope-preset qwen2-vl", "rope.reference[qwen2-vl/float32]"},
      {"scaled_rotary_offset_ignored", "--rope-preset deepseek-v2-lite",
       "rope.partial.pass_through[deepseek-v2-lite/float32]"},
      {"scaled_freq_factors_multiplied", "--rope-config 'adjacent:10000:48:last(16)+freq_factors(1,1,2,4,8,8,8,8)'",
       "rope.reference[user-adjacent-48-theta10000-last-16-freq_factors-3b868e4b/float32]"},
      {"scaled_linear_factor_on_theta", "--rope-config 'adjacent:10000:64:linear(4)'",
       "rope.reference[user-adjacent-64-theta10000-linear-4/float32]"}};
  for (const auto& c : cases) {
    const std::string dir = out_dir(std::string("scaled-") + c.mutant);
    auto r = run("check --impl " + mutant(c.mutant) + " " + c.flags + " --law rope --cases 10 --out " + dir);
    EXPECT_EQ(r.code, 1) << c.mutant << "\n" << r.out;
    EXPECT_EQ(verdicts(pv::json::parse(slurp(dir + "/" + c.mutant + ".json")))[c.law], pv::verdict::failed)
        << c.mutant << " should fail " << c.law;
  }
}

}  // namespace

namespace {

// The configurations of ABI version 7 (a rotary offset, frequency factors) are
// sent only to a plugin of version 7 that declares them: a version-6 plugin,
// whose struct ends before those members, never receives one even when it sets
// every bit of rope_caps, and a version-7 kernel without the declaration is
// not sent one either (unsupported, never failed). The one that declares them
// passes (the built-in scaled_rope).
TEST(CheckScaled, Version7ConfigurationsGoOnlyToKernelsDeclaringThem) {
  const std::string flags = " --rope-preset deepseek-v2-lite --rope-config 'halves:500000:16:freq_factors(1,1,2,4,8,8,8,8)'"
                            " --rope-config halves:10000:64 --law rope.reference --cases 5";
  const std::string ff = "rope.reference[user-halves-16-theta500000-freq_factors-3b868e4b/float32]";
  for (const auto& [lib, name] : {std::pair<std::string, std::string>{POSVERIFY_ABI_V6_ALL_CAPS, "abi-v6-all-caps"},
                                  {builtin("plain_float"), "builtin-plain-float"}}) {
    const std::string dir = out_dir("scaled-v7-" + name);
    auto r = run("check --impl " + lib + flags + " --out " + dir);
    EXPECT_EQ(r.code, 0) << r.out;
    auto v = verdicts(pv::json::parse(slurp(dir + "/" + name + ".json")));
    EXPECT_EQ(v["rope.reference[deepseek-v2-lite/float32]"], pv::verdict::unsupported) << name;
    EXPECT_EQ(v[ff], pv::verdict::unsupported) << name;
    EXPECT_EQ(v["rope.reference[user-halves-64-theta10000/float32]"], pv::verdict::passed) << name;
  }
  const std::string dir = out_dir("scaled-v7-builtin");
  auto s = run("check --impl " + builtin("scaled_rope") + flags + " --out " + dir);
  EXPECT_EQ(s.code, 0) << s.out;
  auto v = verdicts(pv::json::parse(slurp(dir + "/builtin-scaled-rope.json")));
  EXPECT_EQ(v["rope.reference[deepseek-v2-lite/float32]"], pv::verdict::passed);
  EXPECT_EQ(v[ff], pv::verdict::passed);
}

// The diagnosis names what a scaled kernel does (linear, NTK, YaRN scalings).
TEST(CheckScaled, DiagnosisNamesTheRule) {
  struct diag {
    const char* mutant;
    const char* flags;
    const char* expect;
  };
  const diag cases[] = {
      {"scaled_no_ramp", "--rope-config 'halves:10000:128:yarn(4,32,1,4096)'",
       "it applies position interpolation with factor 4, not YaRN"},
      {"scaled_no_ramp", "--rope-preset llama-3.1-8b", "the llama3 ramp is missing, all speeds divided by 8"},
      {"scaled_partial_rotates_all", "--rope-config 'halves:10000:128:partial(32)'",
       "it rotates all 128 components, the configuration rotates 32"},
      {"scaled_partial_wrong_components", "--rope-preset phi-2",
       "it rotates components 48 to 79, the configuration the first 32"},
      {"scaled_yarn_no_temperature", "--rope-config 'halves:10000:128:yarn(16,32,1,4096)'",
       "it leaves out YaRN's attention factor"},
      {"scaled_linear_factor_on_theta", "--rope-config 'adjacent:10000:64:linear(4)'", "it applies the factor 4 to theta"},
      {"scaled_yarn_ramp_swapped", "--rope-preset llama-3.1-8b", "the ramp of the llama3 rule runs the wrong way"},
      {"scaled_llama3_factors_swapped", "--rope-preset llama-3.1-8b",
       "it swaps llama3's low_freq_factor and high_freq_factor (1 and 4)"},
      {"scaled_llama3_factor_inverted", "--rope-preset llama-3.1-8b",
       "it inverts the factor of the llama3 rule: the slow pairs' speeds are multiplied by 8, not divided"},
      {"scaled_dynamic_wrong_length", "--rope-config 'halves:10000:64:dynamic(2,4096,16384)'",
       "it computes dynamic NTK's base for length 8192"},
      {"scaled_pairing_flipped", "--rope-preset llama-3.1-8b",
       "its speeds are those of the configuration; it pairs adjacent components (2i, 2i + 1), the configuration "
       "split halves (i, i + R/2)"},
      {"scaled_pairing_flipped", "--rope-config 'adjacent:10000:64:partial(32)+linear(4)'",
       "it pairs split halves (i, i + R/2), the configuration adjacent components (2i, 2i + 1)"},
      {"scaled_mrope_axes_swapped", "--rope-preset qwen2-vl",
       "axis 1 drives pairs 40-63 (expected 16-39); axis 2 drives pairs 16-39 (expected 40-63)"},
      {"scaled_rotary_offset_ignored", "--rope-preset deepseek-v2-lite",
       "it rotates components 0 to 63, the configuration components 128 to 191"},
      {"scaled_freq_factors_multiplied", "--rope-config 'halves:500000:16:freq_factors(1,1,2,4,8,8,8,8)'",
       "it multiplies the speeds by the frequency factors instead of dividing them"}};
  for (const auto& c : cases) {
    const std::string dir = out_dir(std::string("scaled-diag-") + c.mutant);
    auto r = run("check --impl " + mutant(c.mutant) + " " + c.flags + " --law rope.reference --cases 3 --out " + dir);
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.mutant << " " << c.flags << "\n" << r.out;
  }
}

}  // namespace

namespace {

// YaRN's attention factor could not be spelled (DeepSeek-V2 sets it to 1 and
// moves mscale into the softmax scale): yarn's fifth argument sets it. The
// correct kernel follows it; a kernel without the temperature is then right
// at a = 1 and wrong at the default a.
TEST(CheckScaled, YarnAttentionFactorCanBeSet) {
  const std::string dir = out_dir("scaled-yarn-a");
  const std::string one = " --rope-config 'adjacent:10000:64:yarn(40,32,1,4096,1)'";
  auto ok = run("check --impl " + builtin("scaled_rope") + one +
                " --rope-config 'halves:10000:128:yarn(16,32,1,4096,1.25)' --law rope --cases 10 --out " + dir);
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find("ok    rope.yarn.temperature[user-halves-128-theta10000-yarn-16-32-1-4096-1.25/float32]"),
            std::string::npos)
      << ok.out;
  auto none = run("check --impl " + mutant("scaled_yarn_no_temperature") + one + " --law rope --cases 10 --out " + dir);
  EXPECT_EQ(none.code, 0) << none.out;
  auto dflt = run("check --impl " + mutant("scaled_yarn_no_temperature") +
                  " --rope-config 'adjacent:10000:64:yarn(40,32,1,4096)' --law rope --cases 10 --out " + dir);
  EXPECT_EQ(dflt.code, 1) << dflt.out;
}

}  // namespace

namespace {

// A RoPE of the version-1 era, rebuilt against a header of versions 3 to 5
// (its initializer says PV_ABI_VERSION), claimed their configurations: it
// was sent llama3 speeds, turned by the plain ladder and failed. The
// configurations of version 3 are declared (rope_caps, version 6): it is sent
// plain ones only, the others are unsupported, and the report says so; the
// kernel that declares them is sent them.
TEST(CheckScaled, RebuiltVersion1RopeIsSentPlainConfigurationsOnly) {
  const std::string dir = out_dir("scaled-v1-rebuilt");
  const std::string flags = " --rope-preset llama-3.1-8b --rope-preset phi-2 --rope-config halves:10000:64"
                            " --law rope --cases 5 --out " + dir;
  auto r = run("check --impl " + std::string(POSVERIFY_ABI_V1_REBUILT) + flags);
  EXPECT_EQ(r.code, 0) << r.out;
  auto j = pv::json::parse(slurp(dir + "/abi-v1-rebuilt.json"));
  auto v = verdicts(j);
  EXPECT_EQ(v["rope.reference[llama-3.1-8b/float32]"], pv::verdict::unsupported);
  EXPECT_EQ(v["rope.partial.pass_through[phi-2/float64]"], pv::verdict::unsupported);
  EXPECT_EQ(v["rope.reference[user-halves-64-theta10000/float32]"], pv::verdict::passed);
  EXPECT_EQ(v["rope.reference[user-halves-64-theta10000/float64]"], pv::verdict::passed);
  EXPECT_EQ(j.find("implementation")->find("rope_caps")->as_integer(), 0);
  EXPECT_NE(slurp(dir + "/abi-v1-rebuilt.md").find("(rope is sent plain configurations only)"), std::string::npos);
  auto s = run("check --impl " + builtin("scaled_rope") + flags);
  EXPECT_EQ(s.code, 0) << s.out;
  auto js = pv::json::parse(slurp(dir + "/builtin-scaled-rope.json"));
  EXPECT_EQ(js.find("implementation")->find("rope_caps")->as_integer(),
            PV_ROPE_PARTIAL | PV_ROPE_MROPE | PV_ROPE_SCALED | PV_ROPE_ROTARY_OFFSET | PV_ROPE_FREQ_FACTORS);
  EXPECT_EQ(verdicts(js)["rope.reference[llama-3.1-8b/float32]"], pv::verdict::passed);
  EXPECT_NE(slurp(dir + "/builtin-scaled-rope.md")
                .find("(rope is sent plain configurations, partial rotary, M-RoPE, scaled speeds, a rotary offset, "
                      "frequency factors)"),
            std::string::npos);
}

}  // namespace

namespace {

// Dynamic NTK as Hugging Face runs it takes the length from each call's
// positions (1 + the largest), with a cache that only grows until a call
// shorter than L0: judged against scaling.length, such a correct kernel was
// rejected with the diagnosis "ignores dynamic NTK". It declares its length
// model (PV_ROPE_LENGTH_FROM_POSITIONS) and is checked as it runs; without the
// declaration it is rejected, told why, and the advice is rechecked; its
// wrong sibling (the length one short) is caught and named.
const char* kDynamic = " --rope-config 'halves:10000:64:dynamic(2,4096,16384)'";
const char* kDynamicId = "user-halves-64-theta10000-dynamic-2-4096-16384";


TEST(CheckLengthModel, AKernelReadingTheLengthFromThePositionsPassesWhenItDeclaresIt) {
  for (const char* maxpos : {"8192", "131072"}) {  // positions never pass the call's length
    const std::string dir = out_dir(std::string("length-model-declared-") + maxpos);
    auto r = run("check --impl " + panel("rope_dynamic_from_positions") + kDynamic + " --max-position " + maxpos +
                 " --cases 30 --out " + dir);
    EXPECT_EQ(r.code, 0) << r.out;
    const std::string id = kDynamicId;
    auto v = verdicts(pv::json::parse(slurp(dir + "/panel-rope-dynamic-from-positions.json")));
    for (const std::string law : {"rope.reference", "rope.rows", "rope.composition", "rope.shift_invariance",
                                  "rope.attention_translation_invariance", "rope.dynamic_ntk.length_dependence"})
      EXPECT_EQ(v[law + "[" + id + "/float32]"], pv::verdict::passed) << law << " at --max-position " << maxpos;
    EXPECT_NE(slurp(dir + "/panel-rope-dynamic-from-positions.md")
                  .find("it takes dynamic NTK's length from the call's positions"),
              std::string::npos)
        << "the report states the length model";
  }
}

TEST(CheckLengthModel, UndeclaredItIsRejectedToldWhyAndTheAdviceIsRechecked) {
  const std::string dir = out_dir("length-model-undeclared");
  auto r = run("check --impl " + std::string(POSVERIFY_ROPE_DYNAMIC_UNDECLARED) + kDynamic + " --cases 30 --out " + dir);
  EXPECT_EQ(r.code, 1) << r.out;
  auto v = verdicts(pv::json::parse(slurp(dir + "/rope_dynamic_undeclared.json")));
  EXPECT_EQ(v[std::string("rope.reference[") + kDynamicId + "/float32]"], pv::verdict::failed);
  EXPECT_NE(r.out.find("it reads dynamic NTK's length from the call's positions"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("it ignores dynamic NTK"), std::string::npos) << "the wrong cause\n" << r.out;
  EXPECT_NE(r.out.find("as if it declared so: none fails. If the kernel is meant to compute so, declare "
                       "PV_ROPE_LENGTH_FROM_POSITIONS"),
            std::string::npos)
      << r.out;
}

TEST(CheckLengthModel, TheSiblingOneShortIsCaughtWithTheLengthItReads) {
  const std::string dir = out_dir("length-model-no-plus-one");
  auto r = run("check --impl " + mutant("panel_rope_dynamic_from_positions_no_plus_one") + kDynamic +
               " --cases 30 --out " + dir);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("it computes dynamic NTK's base for length 16383 (theta' = "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("each call's largest position is 16383"), std::string::npos) << r.out;
  // the length is fitted, not guessed: a kernel reading the configured length gets no such line
  const std::string ok_dir = out_dir("length-model-builtin");
  auto b = run("check --impl " + builtin("scaled_rope") + kDynamic + " --law rope --cases 10 --out " + ok_dir);
  EXPECT_EQ(b.code, 0) << b.out;
}

}  // namespace

namespace {

// M-RoPE as ggml spells it could not be written: four sections, and sections
// over the first R components with the rest passing through. Both correct
// kernels follow them (every law that runs passes), and a kernel rotating the
// wrong components is caught and named.
TEST(CheckScaled, MRopeWithFourSectionsAndWithPartialRotary) {
  const char* specs[] = {"halves:1000000:128:mrope(16,16,16,16)", "halves:1000000:128:partial(64)+mrope(8,12,12)",
                         "adjacent:1000000:128:mrope(8,12,12)+partial(64)+linear(2)"};
  for (const char* spec : specs)
    for (const std::string lib : {builtin("scaled_rope"), panel("rope_angle_ladder")}) {
      const std::string dir = out_dir("mrope-spellings");
      auto r = run("check --impl " + lib + " --rope-config '" + spec + "' --cases 10 --out " + dir);
      EXPECT_EQ(r.code, 0) << spec << " " << lib << "\n" << r.out;
      EXPECT_NE(r.out.find("  ok    rope.reference[user-"), std::string::npos) << r.out;
    }
  const std::string dir = out_dir("mrope-partial-mutant");
  auto r = run("check --impl " + mutant("scaled_partial_wrong_components") + " --rope-config '" + specs[1] +
               "' --law rope.reference --cases 5 --out " + dir);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("it rotates components 64 to 127, the configuration the first 64"), std::string::npos) << r.out;
}

}  // namespace

}  // namespace blackbox_rope_scaled_test
