// Version 4 of the plugin interface (attend): plugins of versions 1 to 3 keep
// loading and are never read past their members; a version-4 plugin's
// capabilities and empty-row convention are read from its members, never
// implied by its version; a call needing a capability the plugin does not
// declare is never made (the call is "unsupported"); the outputs out and lse
// come back one after the other.
#include "sandbox/sandbox.h"
#include "support/plugins.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace sandbox_attend_abi_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv::sandbox;
using pv::plugin_test::plugin_map;

impl_info load(const std::string& path) { return probe_library(path, 5000); }
std::string builtin(const std::string& n) { return plugin_map(POSVERIFY_BUILTIN_PLUGINS).at(n); }

TEST(AttendAbi, VersionThreePluginsLoadAndAreNotReadPastTheirMembers) {
  // the bytes after its pv_impl look like an attend() with every capability
  const impl_info v3 = load(POSVERIFY_ABI_V3);
  EXPECT_EQ(v3.abi_version, 3u);
  EXPECT_EQ(v3.name, "abi-v3-plain-float");
  EXPECT_TRUE(v3.has(op::attention));
  EXPECT_FALSE(v3.has(op::attend));
  EXPECT_EQ(v3.attend_caps, 0u);
  EXPECT_EQ(v3.attend_empty_rows, 0u);
  for (const char* old : {POSVERIFY_ABI_V1, POSVERIFY_ABI_V2}) {
    const impl_info i = load(old);
    EXPECT_FALSE(i.has(op::attend)) << old;
    EXPECT_EQ(i.attend_caps, 0u) << old;
  }
}

TEST(AttendAbi, ARebuiltPluginDeclaresNothingNew) {
  // plain_float's initializer says PV_ABI_VERSION: rebuilt, it is the newest
  // version, and declares neither attend nor a 16-bit dtype
  const impl_info f = load(builtin("plain_float"));
  EXPECT_EQ(f.abi_version, std::uint32_t(PV_ABI_VERSION));
  EXPECT_FALSE(f.has(op::attend));
  EXPECT_EQ(f.attend_caps, 0u);
  EXPECT_EQ(f.attend_empty_rows, 0u);
  EXPECT_EQ(f.dtypes, std::uint32_t(PV_DTYPE_BIT(PV_F32) | PV_DTYPE_BIT(PV_F64)));
}

TEST(AttendAbi, CapabilitiesAreReadFromTheMembers) {
  const impl_info t = load(builtin("attend_tiled"));
  EXPECT_EQ(t.abi_version, 5u);  // version 5: it declares float16 and bfloat16 in `dtypes`
  EXPECT_TRUE(t.has(op::attend));
  EXPECT_TRUE(t.offers(PV_F16) && t.offers(PV_BF16));
  EXPECT_EQ(t.attend_caps, 0x7FFu) << "causal, window, padding, GQA, softcap, sinks, ALiBi, LSE, a fixed schedule, "
                                     "an explicit bias, packed items";
  EXPECT_EQ(t.attend_empty_rows, std::uint32_t(PV_EMPTY_ZEROS));
  const impl_info n = load(POSVERIFY_ATTEND_NO_CAPS);
  EXPECT_TRUE(n.has(op::attend));
  EXPECT_EQ(n.attend_caps, 0u);
  EXPECT_EQ(n.attend_empty_rows, 0u);
}

/// One attend call on float32: 1 item, h_q query heads over h_kv KV heads,
/// n_q = 2 queries and n_k = 3 keys of d = d_v = 2, dense; every q, k entry
/// 0 (uniform weights) and v[j][g][c] = j + 10 g; `bias` one [n_q][n_k]
/// for the item, or none. `packed`: the same tokens as two packed items
/// (PV_ATTEND_VARLEN), query 0 with key 0, query 1 with keys 1 and 2.
call one_call(std::int64_t h_q, std::int64_t h_kv, bool causal, bool lse, const std::vector<double>& bias = {},
              bool packed = false) {
  pv_attention_problem p{};
  p.batch = 1;
  p.h_q = h_q;
  p.h_kv = h_kv;
  p.n_q = 2;
  p.n_k = 3;
  p.d = p.d_v = 2;
  p.q_stride[2] = p.k_stride[2] = p.v_stride[2] = p.out_stride[2] = 2;
  p.q_stride[1] = p.out_stride[1] = 2 * h_q;
  p.k_stride[1] = p.v_stride[1] = 2 * h_kv;
  p.q_stride[0] = p.out_stride[0] = 4 * h_q;
  p.k_stride[0] = p.v_stride[0] = 6 * h_kv;
  p.causal = causal;
  p.window_left = p.window_right = -1;
  p.bias_batch = bias.empty() ? 0 : 1;
  std::vector<float> q(std::size_t(4 * h_q), 0.0f), k(std::size_t(6 * h_kv), 0.0f), v(std::size_t(6 * h_kv));
  for (std::int64_t j = 0; j < 3; ++j)
    for (std::int64_t g = 0; g < h_kv; ++g)
      for (int c = 0; c < 2; ++c) v[std::size_t((j * h_kv + g) * 2 + c)] = float(j + 10 * g);
  auto bytes = [](const auto& x) {
    std::vector<unsigned char> b(x.size() * sizeof(x[0]));
    std::memcpy(b.data(), x.data(), b.size());
    return b;
  };
  std::vector<std::int64_t> qs = {1}, kl = {3}, cu_q, cu_k;
  if (packed) {
    p.batch = 2;
    p.q_stride[0] = p.k_stride[0] = p.v_stride[0] = p.out_stride[0] = 0;
    qs = {0, 0}, kl = {1, 2}, cu_q = {0, 1, 2}, cu_k = {0, 1, 3};
  }
  return call(op::attend, PV_F32, {0, 0, lse ? 2 * h_q : 0, std::int64_t(cu_q.size())},
              {bytes_of_struct(p), bytes(q), bytes(k), bytes(v), bytes(qs), bytes(kl), {}, {}, bytes(bias),
               bytes(cu_q), bytes(cu_k)});
}

TEST(AttendAbi, ACallNeedingAnUndeclaredCapabilityIsNeverMade) {
  const impl_info none = load(POSVERIFY_ATTEND_NO_CAPS), all = load(builtin("attend_tiled"));
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<call> calls = {one_call(2, 2, false, false), one_call(4, 2, false, false),
                                   one_call(2, 2, true, false), one_call(2, 2, false, true),
                                   one_call(2, 2, false, false, {0, 0, -inf, -inf, 0, 0}),
                                   one_call(2, 2, false, false, {}, true)};
  const auto rn = run_batch(none, calls, {}), ra = run_batch(all, calls, {});
  ASSERT_EQ(rn.size(), 6u);
  EXPECT_EQ(rn[0].st, status::ok) << rn[0].detail;
  for (int i : {1, 2, 3, 4, 5})
    EXPECT_EQ(rn[std::size_t(i)].st, status::unsupported) << "call " << i << ": GQA, causal, lse, a bias, packed";
  for (int i : {0, 1, 2, 3, 4, 5})
    EXPECT_EQ(ra[std::size_t(i)].st, status::ok) << "call " << i << ": " << ra[std::size_t(i)].detail;
  // the bias's -inf masks: query 0 sees keys 0, 1 (mean 0.5), query 1 keys 1, 2 (mean 1.5)
  float m[8];
  std::memcpy(m, ra[4].out.data(), sizeof m);
  EXPECT_EQ(m[0], 0.5f);
  EXPECT_EQ(m[4], 1.5f);
  // GQA: query heads 0, 1 read KV head 0 (values j), 2, 3 KV head 1 (j + 10): uniform weights give the means
  ASSERT_EQ(ra[1].out.size(), std::size_t(2 * 4 * 2) * 4);
  float o[16];
  std::memcpy(o, ra[1].out.data(), sizeof o);
  EXPECT_EQ(o[0], 1.0f);
  EXPECT_EQ(o[2], 1.0f) << "head 1 reads KV head 0 (repeat), not KV head 1 (tile)";
  EXPECT_EQ(o[4], 11.0f);
  // causal at q_start = 1: query 0 sees keys 0, 1 (mean 0.5), query 1 all three (mean 1)
  float c[8];
  std::memcpy(c, ra[2].out.data(), sizeof c);
  EXPECT_EQ(c[0], 0.5f);
  EXPECT_EQ(c[4], 1.0f);
  // the log-sum-exp follows out, in double: ln 3 for three equal logits 0
  ASSERT_EQ(ra[3].out.size(), std::size_t(2 * 2 * 2) * 4 + 4 * 8);
  double l[4];
  std::memcpy(l, ra[3].out.data() + 32, sizeof l);
  for (double x : l) EXPECT_NEAR(x, std::log(3.0), 1e-6);
  // packed items: token 0 (item 0) sees key 0 alone (value 0), token 1 (item 1) keys 1 and 2 (mean 1.5);
  // one sequence comes back, whatever the batch
  ASSERT_EQ(ra[5].out.size(), std::size_t(2 * 2 * 2) * 4);
  float pk[8];
  std::memcpy(pk, ra[5].out.data(), sizeof pk);
  EXPECT_EQ(pk[0], 0.0f);
  EXPECT_EQ(pk[2], 10.0f) << "head 1 reads KV head 1";
  EXPECT_EQ(pk[4], 1.5f);
}

}  // namespace

}  // namespace sandbox_attend_abi_test
