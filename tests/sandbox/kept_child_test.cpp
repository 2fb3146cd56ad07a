// The kept child (runner_options::keep_child): it answers batch after batch
// as fresh children do, one child for them all; a finding other than ok or
// declined, a crash, another library or a death between batches gives the
// next batch a new child, and a death between batches is no finding.
#include "sandbox/sandbox.h"
#include "support/plugins.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>
#include <unistd.h>

namespace sandbox_kept_child_test {  // this file's names: a unity build compiles several test files as one

namespace {

using namespace pv::sandbox;
using pv::plugin_test::plugin_map;

call attention_call(long nq, long nk, long d, long dv) {
  auto fill = [](long n, double salt) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i) v[std::size_t(i)] = 0.25 * double(i % 7) - 0.5 + salt;
    return bytes_of(v);
  };
  return call(op::attention, PV_F64, {nq, nk, d, dv}, {fill(nq * d, 0), fill(nk * d, 0.125), fill(nk * dv, -0.25)});
}

impl_info load(const char* map, const std::string& name) { return probe_library(plugin_map(map).at(name), 5000); }

runner_options kept() {
  runner_options o;
  o.keep_child = true;
  return o;
}

/// Children forked by f.
template <class F>
long children_of(F f) {
  const long before = stats().children;
  f();
  return stats().children - before;
}

TEST(KeptChild, AnswersBatchAfterBatchAsFreshChildrenDoInOneChild) {
  end_kept_child();
  const auto lib = load(POSVERIFY_BUILTIN_PLUGINS, "plain_double");
  const std::vector<std::vector<call>> batches = {
      {attention_call(2, 3, 4, 5), attention_call(1, 1, 1, 1)}, {attention_call(7, 9, 3, 2)},
      {attention_call(64, 65, 16, 8), attention_call(3, 3, 3, 3), attention_call(1, 2, 3, 4)}};
  std::vector<std::vector<result>> fresh;
  for (const auto& b : batches) fresh.push_back(run_batch(lib, b, {}));
  const long n = children_of([&] {
    for (std::size_t i = 0; i < batches.size(); ++i) {
      const auto r = run_batch(lib, batches[i], kept());
      ASSERT_EQ(r.size(), fresh[i].size());
      for (std::size_t k = 0; k < r.size(); ++k) {
        EXPECT_EQ(r[k].st, status::ok) << r[k].detail;
        EXPECT_EQ(r[k].out, fresh[i][k].out) << "batch " << i << ", call " << k;
      }
    }
  });
  EXPECT_EQ(n, 1) << "one child for the three batches";
  // another library ends it; coming back starts a new one
  const auto other = load(POSVERIFY_BUILTIN_PLUGINS, "plain_float");
  EXPECT_EQ(children_of([&] {
              run_batch(other, batches[0], kept());
              run_batch(lib, batches[0], kept());
              run_batch(lib, batches[1], kept());
            }),
            2);
  end_kept_child();
}

TEST(KeptChild, AFindingOrACrashEndsItAndTheNextBatchHasANewOne) {
  end_kept_child();
  const auto past = load(POSVERIFY_MUTANT_PLUGINS, "attn_write_past");
  EXPECT_EQ(children_of([&] {
              for (int i = 0; i < 2; ++i) {
                const auto r = run_batch(past, {attention_call(2, 3, 4, 5)}, kept());
                EXPECT_EQ(r[0].st, status::guard) << r[0].detail;
              }
            }),
            2)
      << "a child that wrote past a buffer serves no later batch";
  const auto crash = load(POSVERIFY_MUTANT_PLUGINS, "attn_crash");
  EXPECT_EQ(children_of([&] {
              const auto r = run_batch(crash, {attention_call(2, 3, 4, 5), attention_call(6, 3, 4, 5)}, kept());
              EXPECT_EQ(r[0].st, status::ok) << r[0].detail;
              EXPECT_EQ(r[1].st, status::crashed) << r[1].detail;
              EXPECT_NE(r[1].detail.find("signal 11"), std::string::npos) << r[1].detail;
              const auto after = run_batch(crash, {attention_call(2, 3, 4, 5), attention_call(1, 3, 4, 5)}, kept());
              EXPECT_EQ(after[0].st, status::ok) << after[0].detail;
              EXPECT_EQ(after[1].st, status::ok) << after[1].detail;
            }),
            2);
  end_kept_child();
}

/// SIGKILLs this process's children (the kept child).
void kill_children() {
  std::ifstream f("/proc/self/task/" + std::to_string(::getpid()) + "/children");
  for (long pid; f >> pid;) ::kill(pid_t(pid), SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

TEST(KeptChild, ADeathBetweenBatchesIsNoFindingAndANewChildTakesOver) {
  end_kept_child();
  const auto lib = load(POSVERIFY_BUILTIN_PLUGINS, "plain_double");
  EXPECT_EQ(children_of([&] {
              EXPECT_EQ(run_batch(lib, {attention_call(2, 3, 4, 5)}, kept())[0].st, status::ok);
              kill_children();
              const auto r = run_batch(lib, {attention_call(2, 3, 4, 5), attention_call(4, 4, 4, 4)}, kept());
              EXPECT_EQ(r[0].st, status::ok) << r[0].detail;
              EXPECT_EQ(r[1].st, status::ok) << r[1].detail;
            }),
            2);
  end_kept_child();
}

}  // namespace

}  // namespace sandbox_kept_child_test
