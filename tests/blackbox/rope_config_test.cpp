// --rope-config PAIRING:THETA:DIMS[:MODIFIERS] and --rope-preset: what is
// accepted, and that blanks, signs, hex and non-finite values are errors
// naming the field (found by fuzzing and by the adversarial round); the
// scaled speeds of the reference against values worked out by hand from the
// formulas of docs/rope-configs.md.
#include "blackbox/rope_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace blackbox_rope_config_test {  // this file's names: a unity build compiles several test files as one

namespace {

std::string error_of(const std::string& spec) {
  try {
    pv::blackbox::parse_rope_config(spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(RopeConfig, Accepted) {
  const auto r = pv::blackbox::parse_rope_config("adjacent:10000:16,56,56");
  EXPECT_EQ(r.c.n_axes, 3);
  EXPECT_EQ(r.c.head_dim, 128);
  EXPECT_EQ(r.c.theta, 10000.0);
  EXPECT_EQ(pv::blackbox::parse_rope_config("halves:5e5:128").c.theta, 500000.0);
}

TEST(RopeConfig, RejectedNamingTheField) {
  for (const char* theta : {" 1e4", "+1e4", "0x10", "inf", "nan", "1e999", "1", "abc", ""})
    EXPECT_NE(error_of(std::string("halves:") + theta + ":64").find("theta '" + std::string(theta) + "'"),
              std::string::npos)
        << theta;
  for (const char* dim : {" 2", "+2", "2 ", "0", "3", "4098", "00000000000000000002", "-2", ""})
    EXPECT_NE(error_of(std::string("halves:10000:") + dim).find("axis dimension '" + std::string(dim) + "'"),
              std::string::npos)
        << dim;
  EXPECT_NE(error_of("halves:10000:2,2,2,2,2").find("at most 4 axes"), std::string::npos);
  EXPECT_NE(error_of("halves:10000:4096,2").find("exceeds 4096"), std::string::npos);
  EXPECT_NE(error_of("sideways:10000:64").find("pairing 'sideways'"), std::string::npos);
  EXPECT_NE(error_of("halves").find("three fields"), std::string::npos);
}

TEST(RopeConfig, ModifiersAccepted) {
  using pv::blackbox::parse_rope_config;
  auto l3 = parse_rope_config("halves:500000:128:llama3(8,1,4,8192)");
  EXPECT_EQ(l3.c.scaling.kind, PV_SCALE_LLAMA3);
  EXPECT_EQ(l3.c.scaling.factor, 8.0);
  EXPECT_EQ(l3.c.scaling.low, 1.0);
  EXPECT_EQ(l3.c.scaling.high, 4.0);
  EXPECT_EQ(l3.c.scaling.original_length, 8192.0);
  EXPECT_EQ(pv_rope_config_version(&l3.c), 3);
  auto p = parse_rope_config("adjacent:10000:64:partial(32)");
  EXPECT_EQ(p.c.head_dim, 64);
  EXPECT_EQ(p.c.axes_dim[0], 32);
  EXPECT_EQ(p.c.scaling.kind, PV_SCALE_NONE);
  auto y = parse_rope_config("halves:10000:128:yarn(16,32,1,4096)");
  EXPECT_EQ(y.c.scaling.high, 32.0);  // beta_fast
  EXPECT_EQ(y.c.scaling.low, 1.0);    // beta_slow
  EXPECT_DOUBLE_EQ(y.c.scaling.attention_factor, 0.1 * std::log(16.0) + 1);
  // the attention factor set explicitly (DeepSeek-V2: mscale = mscale_all_dim
  // makes it 1, the softmax scale carries mscale^2)
  auto ya = parse_rope_config("adjacent:10000:64:yarn(40,32,1,4096,1)");
  EXPECT_EQ(ya.c.scaling.attention_factor, 1.0);
  EXPECT_EQ(ya.c.scaling.factor, 40.0);
  EXPECT_EQ(parse_rope_config("halves:10000:128:yarn(16,32,1,4096,1.25)").c.scaling.attention_factor, 1.25);
  auto m = parse_rope_config("halves:1000000:128:mrope(16,24,24)");
  EXPECT_EQ(m.c.n_axes, 3);
  EXPECT_EQ(m.c.mrope, 1);
  EXPECT_EQ(m.c.axes_dim[1], 48);
  // a fourth section (ggml's M-RoPE), and M-RoPE over the first R components
  auto m4 = parse_rope_config("halves:1000000:128:mrope(16,16,16,16)");
  EXPECT_EQ(m4.c.n_axes, 4);
  EXPECT_EQ(m4.c.axes_dim[3], 32);
  for (const char* spec : {"halves:1000000:128:partial(64)+mrope(8,12,12)", "halves:1000000:128:mrope(8,12,12)+partial(64)"}) {
    auto pm = parse_rope_config(spec);
    EXPECT_EQ(pm.c.head_dim, 128) << spec;
    EXPECT_EQ(pm.c.n_axes, 3) << spec;
    EXPECT_EQ(pm.c.axes_dim[0] + pm.c.axes_dim[1] + pm.c.axes_dim[2], 64) << spec;
    EXPECT_EQ(pm.c.mrope, 1) << spec;
  }
  EXPECT_EQ(parse_rope_config("halves:1000000:128:mrope(16,24,24)+yarn(4,32,1,4096)").c.scaling.kind, PV_SCALE_YARN);
  auto both = parse_rope_config("halves:10000:80:partial(32)+linear(4)");
  EXPECT_EQ(both.c.axes_dim[0], 32);
  EXPECT_EQ(both.c.scaling.kind, PV_SCALE_LINEAR);
  EXPECT_EQ(parse_rope_config("halves:10000:64:dynamic(2,4096,16384)").c.scaling.length, 16384.0);
  EXPECT_EQ(parse_rope_config("adjacent:10000:64:ntk(8)").c.scaling.kind, PV_SCALE_NTK);
  // a plain configuration stays version 1: old plugins keep being called with it
  const auto plain = parse_rope_config("halves:10000:64");
  EXPECT_EQ(pv_rope_config_version(&plain.c), 1);
  // version 7: the last R components (MLA), per-pair frequency factors
  auto last = parse_rope_config("adjacent:10000:192:last(64)+yarn(40,32,1,4096,1)");
  EXPECT_EQ(last.c.axes_dim[0], 64);
  EXPECT_EQ(last.c.rotary_offset, 128);
  EXPECT_EQ(pv_rope_config_version(&last.c), 7);
  auto ff = parse_rope_config("halves:500000:16:freq_factors(1,1,2,4,8,8,8,8.5)");
  EXPECT_EQ(ff.c.n_freq_factors, 8);
  EXPECT_EQ(ff.c.freq_factors[7], 8.5);
  EXPECT_EQ(ff.c.rotary_offset, 0);
  EXPECT_EQ(pv_rope_config_version(&ff.c), 7);
  EXPECT_EQ(ff.name.rfind("user-halves-16-theta500000-freq_factors-", 0), 0u) << ff.name;
  EXPECT_EQ(ff.name.size(), std::string("user-halves-16-theta500000-freq_factors-").size() + 8) << ff.name;
  EXPECT_NE(ff.name, parse_rope_config("halves:500000:16:freq_factors(1,1,2,4,8,8,8,8)").name);
  // the reference's speeds are the ladder's divided by the factors
  const auto L = pv::blackbox::reference_layout(ff.c);
  EXPECT_NEAR(pv::convert<double>(L.pairs[7].speed), std::pow(500000.0, -14.0 / 16) / 8.5, 1e-18);
  EXPECT_EQ(L.pairs[7].a, 7u);
  const auto Ll = pv::blackbox::reference_layout(last.c);
  EXPECT_EQ(Ll.pairs[0].a, 128u);
  EXPECT_EQ(Ll.pairs[0].b, 129u);
  EXPECT_EQ(Ll.pairs.back().b, 191u);
}

TEST(RopeConfig, ModifiersRejectedNamingTheFieldAndValue) {
  const std::pair<const char*, const char*> bad[] = {
      {"halves:10000:128:llama3(8,1,4)", "llama3 takes 4 arguments"},
      {"halves:10000:128:llama3(8,4,1,8192)", "high_freq_factor '1' is not above low_freq_factor '4'"},
      {"halves:10000:128:llama3(8,1,4,8192.5)", "original length '8192.5'"},
      {"halves:10000:128:yarn(0.5,32,1,4096)", "yarn factor '0.5'"},
      {"halves:10000:128:yarn(16,1,32,4096)", "beta_fast '1' is not above beta_slow '32'"},
      {"halves:10000:128:yarn(16,32,-1,4096)", "yarn argument '-1'"},
      {"halves:10000:128:yarn(16,32,1,4096,0)", "yarn argument '0'"},
      {"halves:10000:128:yarn(16,32,1,4096,17)", "yarn attention factor '17' is not in (0, 16]"},
      {"halves:10000:128:yarn(16,32,1,4096,1,2)", "yarn takes 4 arguments"},
      {"halves:10000:128:linear(inf)", "linear argument 'inf'"},
      {"halves:10000:128:linear( 4)", "linear argument ' 4'"},
      {"halves:10000:128:linear(4)+ntk(2)", "at most one scaling"},
      {"halves:10000:64:partial(33)", "partial rotary dimension '33'"},
      {"halves:10000:64:partial(66)", "partial rotary dimension '66'"},
      {"halves:10000:16,56,56:partial(16)", "partial needs one head dimension"},
      {"halves:10000:128:mrope(16,24,25)", "sum to 65, not head_dim/2 = 64"},
      {"halves:10000:128:mrope(16,24)", "mrope takes 3 arguments"},
      {"halves:10000:128:partial(64)+mrope(16,24,24)", "sum to 64, not R/2 = 32"},
      {"halves:10000:128:mrope(16,24,24)+partial(64)", "sum to 64, not R/2 = 32"},
      {"halves:10000:128:mrope(16,16,16,16,0)", "mrope argument '0'"},
      {"halves:10000:128:mrope(16,16,16,16,16)", "mrope takes 3 arguments (mrope(T,H,W[,E])), got 5"},
      {"halves:10000:128:partial(32)+partial(32)", "partial or last twice"},
      {"halves:10000:128:partial(32)+last(32)", "partial or last twice"},
      {"halves:10000:64:last(66)", "rotary dimension '66' is not an even number in [2, 64]"},
      {"halves:10000:16,56,56:last(16)", "last needs one head dimension"},
      {"halves:10000:16:freq_factors(1,2,4)", "freq_factors has 3 values, the configuration rotates 8 pairs (R/2)"},
      {"halves:10000:16:partial(8)+freq_factors(1,2,4,8,8)", "freq_factors has 5 values, the configuration rotates 4"},
      {"halves:10000:16:freq_factors(1,2,4,0,1,1,1,1)", "freq_factors argument '0' is not a positive number"},
      {"halves:10000:16:freq_factors(1,2,4,2e6,1,1,1,1)", "freq_factors value '2000000' is not in (0, 1e6]"},
      {"halves:10000:4:freq_factors(1,1)+freq_factors(1,1)", "freq_factors': twice"},
      {"halves:10000:128:rope2d(1)", "modifier 'rope2d'"},
      {"halves:10000:128:yarn", "is not NAME(ARGS)"},
      {"halves:10000:128:", "is not NAME(ARGS)"},
      {"halves:10000:64:dynamic(2,4096)", "dynamic takes 3 arguments"}};
  for (const auto& [spec, want] : bad) EXPECT_NE(error_of(spec).find(want), std::string::npos) << spec << ": " << error_of(spec);
  // at most 128 frequency factors (PV_MAX_FREQ_FACTORS: a head of 256)
  std::string ones = "1";
  for (int k = 1; k < 256; ++k) ones += ",1";
  const std::string many = "halves:10000:512:freq_factors(" + ones + ")";
  EXPECT_NE(error_of(many).find("freq_factors: at most 128 pairs, the configuration rotates 256"), std::string::npos)
      << error_of(many);
}

TEST(RopePreset, PublishedConfigurations) {
  const auto l = pv::blackbox::parse_rope_preset("llama-3.1-8b");
  EXPECT_EQ(l.name, "llama-3.1-8b");
  EXPECT_EQ(l.c.theta, 500000.0);
  EXPECT_EQ(l.c.scaling.kind, PV_SCALE_LLAMA3);
  EXPECT_EQ(pv::blackbox::parse_rope_preset("phi-2").c.axes_dim[0], 32);
  EXPECT_EQ(pv::blackbox::parse_rope_preset("gpt-neox-20b").c.head_dim, 96);
  EXPECT_EQ(pv::blackbox::parse_rope_preset("qwen2-vl").c.mrope, 1);
  EXPECT_EQ(pv::blackbox::parse_rope_preset("flux.1").c.n_axes, 3);
  EXPECT_EQ(pv::blackbox::parse_rope_preset("deepseek-v2-lite").c.rotary_offset, 128);
  try {
    pv::blackbox::parse_rope_preset("llama-2");
    ADD_FAILURE() << "llama-2 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'llama-2' is not a known model"), std::string::npos) << e.what();
  }
}

// The scaled speeds of the MPFR reference against values derived by hand.
double speed_of(const std::string& spec, std::size_t k) {
  const auto L = pv::blackbox::reference_layout(pv::blackbox::parse_rope_config(spec).c);
  return pv::convert<double>(L.pairs.at(k).speed);
}

TEST(RopeScaling, SpeedsFromTheFormulas) {
  // linear: w_k / 4
  EXPECT_NEAR(speed_of("halves:10000:64:linear(4)", 1), std::pow(10000.0, -2.0 / 64) / 4, 1e-15);
  // NTK: theta' = 10000 * 8^(64/62)
  EXPECT_NEAR(speed_of("adjacent:10000:64:ntk(8)", 5), std::pow(10000.0 * std::pow(8.0, 64.0 / 62), -10.0 / 64), 1e-15);
  // dynamic NTK at L = 16384 > L0 = 4096: base 2*4 - 1 = 7; at L <= L0 the plain ladder
  EXPECT_NEAR(speed_of("halves:10000:64:dynamic(2,4096,16384)", 3), std::pow(10000.0 * std::pow(7.0, 64.0 / 62), -6.0 / 64), 1e-15);
  EXPECT_NEAR(speed_of("halves:10000:64:dynamic(2,4096,4096)", 3), std::pow(10000.0, -6.0 / 64), 1e-15);
  // llama3 (Llama 3.1 8B): pair 0 (wavelength 2 pi < 2048) unchanged; pair 63 (wavelength
  // 2 pi 500000^(126/128) > 8192) divided by 8; a medium pair blends with g = (8192/lambda - 1)/3
  EXPECT_NEAR(speed_of("halves:500000:128:llama3(8,1,4,8192)", 0), 1.0, 1e-15);
  const double w63 = std::pow(500000.0, -126.0 / 128);
  EXPECT_NEAR(speed_of("halves:500000:128:llama3(8,1,4,8192)", 63), w63 / 8, 1e-18);
  for (std::size_t k = 0; k < 64; ++k) {
    const double w = std::pow(500000.0, -2.0 * double(k) / 128), lambda = 2 * M_PI / w;
    if (lambda < 2048 || lambda > 8192) continue;
    const double g = (8192 / lambda - 1) / 3;
    EXPECT_NEAR(speed_of("halves:500000:128:llama3(8,1,4,8192)", k), (1 - g) * w / 8 + g * w, 1e-14 * w) << k;
  }
  // YaRN(16, beta_fast 32, beta_slow 1, L0 4096), R = 128, theta 10000: correction dims
  // 128 ln(4096/(2 pi beta)) / (2 ln 10000) = 20.94 (beta 32) and 45.03 (beta 1): lo 20, hi 46
  const std::string yarn = "halves:10000:128:yarn(16,32,1,4096)";
  for (std::size_t k : {0, 20}) EXPECT_NEAR(speed_of(yarn, k), std::pow(10000.0, -2.0 * double(k) / 128), 1e-15) << k;
  for (std::size_t k : {46, 63}) EXPECT_NEAR(speed_of(yarn, k), std::pow(10000.0, -2.0 * double(k) / 128) / 16, 1e-18) << k;
  const double r = (33.0 - 20) / 26, w33 = std::pow(10000.0, -66.0 / 128);
  EXPECT_NEAR(speed_of(yarn, 33), w33 / 16 * r + w33 * (1 - r), 1e-16);
  EXPECT_NEAR(pv::convert<double>(pv::blackbox::reference_layout(pv::blackbox::parse_rope_config(yarn).c).scale),
              0.1 * std::log(16.0) + 1, 1e-15);
}

TEST(RopeScaling, LayoutsOfPartialAndMrope) {
  // partial(32) of 80, halves: pairs (k, k + 16) for k < 16, components 32..79 untouched
  const auto P = pv::blackbox::reference_layout(pv::blackbox::parse_rope_config("halves:10000:80:partial(32)").c);
  ASSERT_EQ(P.pairs.size(), 16u);
  EXPECT_EQ(P.head_dim, 80u);
  EXPECT_EQ(P.pairs[15].a, 15u);
  EXPECT_EQ(P.pairs[15].b, 31u);
  EXPECT_NEAR(pv::convert<double>(P.pairs[1].speed), std::pow(10000.0, -2.0 / 32), 1e-15);  // ladder over R
  // M-RoPE (16, 24, 24): one ladder over 128; pairs 0..15 temporal, 16..39 height, 40..63 width
  const auto M = pv::blackbox::reference_layout(pv::blackbox::parse_rope_config("halves:1000000:128:mrope(16,24,24)").c);
  ASSERT_EQ(M.pairs.size(), 64u);
  for (std::size_t k : {0, 15, 16, 39, 40, 63})
    EXPECT_EQ(M.pairs[k].axis, k < 16 ? 0u : k < 40 ? 1u : 2u) << k;
  EXPECT_EQ(M.pairs[40].b, 104u);
  EXPECT_NEAR(pv::convert<double>(M.pairs[40].speed), std::pow(1e6, -80.0 / 128), 1e-18);
}

}  // namespace

}  // namespace blackbox_rope_config_test
