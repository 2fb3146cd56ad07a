// `posverify check` on attend() (ABI version 4): the built-in tiled kernel
// passes every attend law, and so does it declaring NaN for empty rows; each
// mutant fails the law it is there for, with its class named; a plugin declaring no capability is never called with a
// problem needing one (those laws are unsupported, never failed); a
// version-3 plugin is checked as before and gets no attend laws.
#include "core/json.h"
#include "core/verdict.h"
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace blackbox_attend_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::plugin_test::out_dir;
using pv::plugin_test::plugin_map;
using pv::plugin_test::slurp;

std::string builtin(const std::string& n) { return plugin_map(POSVERIFY_BUILTIN_PLUGINS).at(n); }
std::string mutant(const std::string& n) { return plugin_map(POSVERIFY_MUTANT_PLUGINS).at(n); }

/// The verdicts and findings of a report, by law id.
struct report {
  std::map<std::string, std::string> verdict, finding;
};

report read(const std::string& path) {
  report r;
  const auto j = pv::json::parse(slurp(path));
  for (const auto& kv : j.find("laws")->items()) {
    const std::string id = kv.second.find("id")->as_string();
    r.verdict[id] = kv.second.find("verdict")->as_string();
    const auto* f = kv.second.find("finding");
    r.finding[id] = f && !f->is_null() ? f->as_string() : "";
  }
  return r;
}

TEST(AttendCheck, TheBuiltinTiledKernelPassesEveryAttendLaw) {
  const std::string dir = out_dir("attend-builtin");
  auto r = pv::test::run_posverify("check --impl " + builtin("attend_tiled") + " --cases 30 --out " + dir);
  EXPECT_EQ(r.code, 0) << r.out;
  const report rep = read(dir + "/builtin-attend-tiled.json");
  for (const char* law : {"attend.reference", "attend.support", "attend.gqa_repeat", "attend.causal_prefix",
                          "attend.decode_rows", "attend.padding", "attend.lse_merge", "attend.convex_hull",
                          "attend.independence", "attend.cache", "attend.layout", "attend.homogeneity",
                          "attend.batch_invariance", "attend.permutation", "attend.packing", "attend.self_merge",
                          "attend.sink_as_key", "attend.softcap_saturation"})
    // float16 and bfloat16 too: it declares them (dtypes); stored there, computed in float, the lse float64
    for (const char* t : {"float32", "float64", "float16", "bfloat16"}) {
      const std::string id = std::string(law) + "[" + t + "]";
      EXPECT_EQ(rep.verdict.count(id) ? rep.verdict.at(id) : "missing", "passed") << id;
    }
}

TEST(AttendCheck, EachMutantFailsItsLawWithItsClassNamed) {
  struct expect {
    const char* mutant;
    const char* law;
    const char* says;
  };
  const expect cases[] = {
      {"attend_causal_top_left", "attend.decode_rows[float32]", "causal alignment"},
      {"attend_causal_top_left", "attend.support[float32]", "aligned top-left"},
      {"attend_causal_top_left", "attend.reference[float32]", "causal alignment"},
      {"attend_causal_top_left", "attend.cache[float32]", "aligned top-left against its cache"},
      // transformers#48748: the causal mask dropped when n_q > 1, cached != uncached
      {"attend_causal_dropped_prefill", "attend.cache[float32]", "causal mask dropped in prefill"},
      {"attend_causal_dropped_prefill", "attend.causal_prefix[float32]", "causal mask dropped in prefill"},
      {"attend_causal_dropped_prefill", "attend.reference[float32]", "causal mask dropped in prefill"},
      {"attend_window_plus_one", "attend.support[float32]", "W + 1 keys"},
      {"attend_window_plus_one", "attend.reference[float32]", "window off by one"},
      {"attend_gqa_tile", "attend.gqa_repeat[float32]", "GQA mapping"},
      {"attend_gqa_tile", "attend.reference[float32]", "GQA mapping"},
      {"attend_gqa_tile", "attend.independence[float32]", "GQA mapping"},
      // pytorch PR 186434: at n_q = 1 with GQA, query heads read from the next batch items
      {"attend_gqa_decode_swap", "attend.reference[float32]", "GQA single-query swap"},
      {"attend_gqa_decode_swap", "attend.independence[float32]", "GQA single-query swap"},
      // FlashAttention PR 1562: non-contiguous != contiguous (k read as if dense)
      {"attend_k_strides_ignored", "attend.layout[float32]", "k's strides"},
      {"attend_k_strides_ignored", "attend.reference[float32]", "the kernel ignores k's strides"},
      // a grid of floor(n_q / 64) query blocks (tiny-flash-attention#12): only n_q > 64 shows it
      {"attend_q_block_tail", "attend.reference[float32]", "rows never written: from query row 64"},
      // a key tiling chosen from batch x heads under a declared fixed schedule: only batch invariance sees it
      {"attend_tile_by_batch", "attend.batch_invariance[float32]", "batch-variant schedule"},
      {"attend_tile_by_batch", "attend.batch_invariance[float64]", "batch-variant schedule"},
      {"attend_gqa_decode_swap", "attend.batch_invariance[float32]", "GQA single-query swap"},
      {"attend_softcap_ignored", "attend.reference[float32]", "softcap ignored"},
      {"attend_softcap_swish", "attend.reference[float32]", "softcap formula"},
      // the queries doubled where the scores pass the cap: the capped logits barely move, these double
      {"attend_softcap_ignored", "attend.softcap_saturation[float32]", "softcap ignored"},
      {"attend_softcap_swish", "attend.softcap_saturation[float32]", "softcap formula"},
      {"attend_softcap_after_alibi", "attend.reference[float32]", "softcap after the ALiBi bias"},
      // an explicit mask added before the cap (onnx/onnx#7865): masked keys get the logit -c
      {"attend_mask_before_cap", "attend.reference[float32]", "bias before the softcap"},
      {"attend_mask_before_cap", "attend.support[float32]", "bias before the softcap"},
      {"attend_mask_before_cap", "attend.permutation[float32]", "bias before the softcap"},
      // a per-item bias read as item 0's for every item (onnxruntime-genai PR 1639)
      {"attend_bias_item0", "attend.reference[float32]", "bias broadcast over the batch"},
      {"attend_bias_item0", "attend.permutation[float32]", "bias broadcast over the batch"},
      {"attend_mask_before_cap", "attend.packing[float32]", "bias before the softcap"},
      // packed items whose keys are cut with the queries' offsets (vllm-omni PR 3525): only the varlen call shows it
      {"attend_varlen_k_from_q", "attend.packing[float32]", "cu_seqlens_q read as cu_seqlens_k"},
      {"attend_varlen_k_from_q", "attend.packing[float64]", "cu_seqlens_q read as cu_seqlens_k"},
      {"attend_scale_ignored", "attend.reference[float32]", "scale ignored"},
      {"attend_scale_ignored", "attend.homogeneity[float32]", "scale ignored"},
      {"attend_alibi_ignored", "attend.reference[float32]", "ALiBi ignored"},
      {"attend_sinks_dropped", "attend.reference[float32]", "sinks dropped"},
      // the sink as a key of value 0: the closed form of a sink, named by attend.reference's variants
      {"attend_sinks_dropped", "attend.sink_as_key[float32]", "sinks dropped"},
      {"attend_reads_padding", "attend.padding[float32]", "got nan"},
      {"attend_reads_padding", "attend.reference[float32]", "memory read that must not be"},
      {"attend_empty_rows_nan", "attend.reference[float32]", "empty-row convention: its empty rows hold NaN, it declares zeros"},
      {"attend_lse_log2", "attend.lse_merge[float32]", "log-sum-exp in base 2"},
      // every key twice: lse + 1 in base 2, not + ln 2
      {"attend_lse_log2", "attend.self_merge[float32]", "log-sum-exp in base 2"},
      {"attend_lse_log2", "attend.reference[float32]", "log-sum-exp in base 2"},
      // float16 storage computed in float16: the advice is rechecked before it is given
      {"attend_f16_arith", "attend.reference[float16]",
       "none fails: if the kernel is meant to compute so, declare it with --accuracy float16"},
      // float16 storage, float arithmetic, a float16 p v accumulator (llama.cpp PR 13975, 17746)
      // (attend.reference[float16] sees its rounding too, from case 46 of the main job's 100)
      {"attend_f16_pv_overflow", "attend.convex_hull[float16]", "float16 accumulation overflow"},
  };
  // each mutant's run asks only for the laws checked below (--law is a prefix: the ids with their dtype)
  std::map<std::string, std::string> laws_of;
  for (const auto& e : cases) laws_of[e.mutant] += " --law '" + std::string(e.law) + "'";
  std::map<std::string, report> seen;
  for (const auto& e : cases) {
    if (!seen.count(e.mutant)) {
      const std::string dir = out_dir("attend-" + std::string(e.mutant));
      auto r = pv::test::run_posverify("check --impl " + mutant(e.mutant) + laws_of[e.mutant] + " --cases 30 --out " + dir);
      EXPECT_EQ(r.code, 1) << e.mutant << "\n" << r.out;
      seen[e.mutant] = read(dir + "/" + e.mutant + ".json");
    }
    const report& rep = seen[e.mutant];
    ASSERT_TRUE(rep.verdict.count(e.law)) << e.mutant << " " << e.law;
    EXPECT_EQ(rep.verdict.at(e.law), "failed") << e.mutant << " " << e.law;
    EXPECT_NE(rep.finding.at(e.law).find(e.says), std::string::npos)
        << e.mutant << " " << e.law << ": " << rep.finding.at(e.law);
  }
}

TEST(AttendCheck, UndeclaredCapabilitiesAreUnsupportedNeverFailed) {
  const std::string dir = out_dir("attend-no-caps");
  auto r = pv::test::run_posverify("check --impl " + std::string(POSVERIFY_ATTEND_NO_CAPS) +
                                   " --law attend --cases 20 --out " + dir);
  EXPECT_NE(r.code, 1) << r.out;
  const report rep = read(dir + "/attend-no-caps.json");
  EXPECT_EQ(rep.verdict.at("attend.reference[float32]"), "passed") << "heads, strides and scales only";
  EXPECT_EQ(rep.verdict.at("attend.support[float32]"), "passed");
  EXPECT_EQ(rep.verdict.at("attend.independence[float32]"), "passed") << "batch and heads need no capability";
  EXPECT_EQ(rep.verdict.at("attend.layout[float32]"), "passed") << "nor do strides";
  EXPECT_EQ(rep.verdict.at("attend.homogeneity[float32]"), "passed") << "nor powers of two";
  EXPECT_EQ(rep.verdict.at("attend.batch_invariance[float32]"), "passed") << "within the bound: no fixed schedule";
  for (const char* law : {"attend.gqa_repeat[float32]", "attend.causal_prefix[float32]", "attend.decode_rows[float32]",
                          "attend.cache[float32]",
                          "attend.padding[float32]", "attend.lse_merge[float32]", "attend.permutation[float32]",
                          "attend.packing[float32]", "attend.self_merge[float32]",
                          "attend.sink_as_key[float32]", "attend.softcap_saturation[float32]"})
    EXPECT_EQ(rep.verdict.at(law), "unsupported") << law;
}

TEST(AttendCheck, ADeclaredNaNConventionIsAccepted) {
  // the same kernel as attend_empty_rows_nan, declaring what it writes
  const std::string dir = out_dir("attend-empty-nan");
  auto r = pv::test::run_posverify("check --impl " + std::string(POSVERIFY_ATTEND_EMPTY_NAN) +
                                   " --law attend --cases 30 --out " + dir);
  EXPECT_EQ(r.code, 0) << r.out;
  const report rep = read(dir + "/attend-empty-nan.json");
  EXPECT_EQ(rep.verdict.size(), 36u);  // 18 attend laws, float32 and float64
  for (const auto& [id, v] : rep.verdict) EXPECT_EQ(v, "passed") << id;
}

TEST(AttendCheck, AVersionThreePluginIsCheckedAsBeforeWithoutAttendLaws) {
  const std::string dir = out_dir("attend-abi-v3");
  auto r = pv::test::run_posverify("check --impl " + std::string(POSVERIFY_ABI_V3) +
                                   " --law att --cases 5 --out " + dir);  // attention.* and attend.*
  EXPECT_EQ(r.code, 0) << r.out;
  const report rep = read(dir + "/abi-v3-plain-float.json");
  EXPECT_EQ(rep.verdict.at("attention.reference[float32]"), "passed");
  for (const auto& [id, v] : rep.verdict) EXPECT_NE(id.rfind("attend.", 0), 0u) << id;
  EXPECT_NE(r.out.find("attention.reference"), std::string::npos);
}

}  // namespace

}  // namespace blackbox_attend_test
