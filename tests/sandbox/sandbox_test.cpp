// The sandboxed runner: crashes, hangs, guard-byte overwrites, modified
// inputs and NaN outputs become findings naming the call.
#include "sandbox/sandbox.h"
#include "support/plugins.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>

namespace sandbox_sandbox_test {  // this file's names: a unity build compiles several test files as one

namespace {

using pv::plugin_test::plugin_map;

pv::sandbox::call attention_call(long nq, long nk, long d, long dv) {
  auto fill = [](long n) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i) v[std::size_t(i)] = 0.25 * double(i % 7) - 0.5;
    return pv::sandbox::bytes_of(v);
  };
  return pv::sandbox::call(pv::sandbox::op::attention, PV_F64, {nq, nk, d, dv}, {fill(nq * d), fill(nk * d), fill(nk * dv)});
}

std::string mutant(const std::string& name) { return plugin_map(POSVERIFY_MUTANT_PLUGINS).at(name); }

pv::sandbox::impl_info load(const std::string& path) { return pv::sandbox::probe_library(path, 5000); }

TEST(CheckSandbox, GoodCallsReturnNumbers) {
  auto lib = load(plugin_map(POSVERIFY_BUILTIN_PLUGINS).at("plain_double"));
  EXPECT_EQ(lib.provides, 7u) << "attention, rope and sinusoid";
  auto r = pv::sandbox::run_batch(lib, {attention_call(2, 3, 4, 5), attention_call(1, 1, 1, 1)}, {});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].st, pv::sandbox::status::ok) << r[0].detail;
  EXPECT_EQ(r[0].out.size(), 2u * 5u * 8u);
  EXPECT_EQ(r[1].st, pv::sandbox::status::ok);
}

TEST(CheckSandbox, CrashIsAFindingAndTheBatchGoesOn) {
  auto lib = load(mutant("attn_crash"));
  pv::sandbox::runner_options o;
  o.stop_at_fatal = false;
  auto r = pv::sandbox::run_batch(lib, {attention_call(2, 3, 4, 5), attention_call(6, 3, 4, 5),
                                      attention_call(1, 3, 4, 5)}, o);
  EXPECT_EQ(r[0].st, pv::sandbox::status::ok);
  EXPECT_EQ(r[1].st, pv::sandbox::status::crashed);
  EXPECT_NE(r[1].detail.find("signal"), std::string::npos) << r[1].detail;
  EXPECT_EQ(r[2].st, pv::sandbox::status::ok) << "the child is restarted after a crash";
}

TEST(CheckSandbox, HangIsKilledAfterTheTimeLimit) {
  auto lib = load(mutant("attn_hang"));
  pv::sandbox::runner_options o;
  o.timeout_ms = 300;
  auto r = pv::sandbox::run_batch(lib, {attention_call(2, 7, 4, 5), attention_call(2, 3, 4, 5)}, o);
  EXPECT_EQ(r[0].st, pv::sandbox::status::hung);
  EXPECT_NE(r[0].detail.find("300 ms"), std::string::npos) << r[0].detail;
  EXPECT_EQ(r[1].st, pv::sandbox::status::not_run) << "stop_at_fatal leaves the rest";
}

TEST(CheckSandbox, SpinningKernelIsKilledAfterTheTimeLimit) {
  // attn_hang blocks; this one spins on the CPU (plugins/hostile/spin.c)
  auto lib = load(plugin_map(POSVERIFY_HOSTILE_PLUGINS).at("spin"));
  pv::sandbox::runner_options o;
  o.timeout_ms = 300;
  o.stop_at_fatal = false;
  auto r = pv::sandbox::run_batch(lib, {attention_call(2, 7, 4, 5)}, o);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].st, pv::sandbox::status::hung);
  EXPECT_NE(r[0].detail.find("300 ms"), std::string::npos) << r[0].detail;
}

TEST(CheckSandbox, WritePastTheOutputIsCaughtByGuardBytes) {
  auto r = pv::sandbox::run_batch(load(mutant("attn_write_past")), {attention_call(2, 3, 4, 5)}, {});
  EXPECT_EQ(r[0].st, pv::sandbox::status::guard);
  EXPECT_NE(r[0].detail.find("past the end of out"), std::string::npos) << r[0].detail;
}

TEST(CheckSandbox, ModifiedInputIsCaught) {
  auto r = pv::sandbox::run_batch(load(mutant("attn_writes_input")), {attention_call(2, 3, 4, 5)}, {});
  EXPECT_EQ(r[0].st, pv::sandbox::status::input_written);
  EXPECT_NE(r[0].detail.find("input q"), std::string::npos) << r[0].detail;
}

TEST(CheckSandbox, NaNOutputIsCaught) {
  auto r = pv::sandbox::run_batch(load(mutant("attn_nan")), {attention_call(2, 3, 4, 3)}, {});
  EXPECT_EQ(r[0].st, pv::sandbox::status::non_finite);
  EXPECT_NE(r[0].detail.find("output entry (0, 0)"), std::string::npos) << r[0].detail;
}

TEST(CheckSandbox, UnsupportedDtypeIsNotAnError) {
  auto lib = load(plugin_map(POSVERIFY_BUILTIN_PLUGINS).at("plain_float"));
  auto r = pv::sandbox::run_batch(lib, {attention_call(2, 3, 4, 5)}, {});
  EXPECT_EQ(r[0].st, pv::sandbox::status::unsupported);
}

TEST(CheckSandbox, LoadErrorsNameTheCause) {
  try {
    load(POSVERIFY_BAD_WRONG_ABI);
    FAIL() << "wrong ABI accepted";
  } catch (const pv::sandbox::load_error& e) {
    EXPECT_NE(std::string(e.what()).find("ABI version " + std::to_string(PV_ABI_VERSION + 1)), std::string::npos) << e.what();
  }
  try {
    load(POSVERIFY_BAD_NO_SYMBOL);
    FAIL() << "missing symbol accepted";
  } catch (const pv::sandbox::load_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing symbol posverify_impl"), std::string::npos) << e.what();
  }
  try {
    load("/nonexistent/libnothing.so");
    FAIL() << "missing file accepted";
  } catch (const pv::sandbox::load_error& e) {
    EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
  }
}

}  // namespace

}  // namespace sandbox_sandbox_test
