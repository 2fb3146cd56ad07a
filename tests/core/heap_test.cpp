// The heap tuning of core/heap.h: memory freed between two rounds of calls is
// kept, so the second round does not fault its pages in again. Each case runs
// in a forked child, whose heap settings and faults are its own.
#include "core/heap.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace core_heap_test {  // this file's names: a unity build compiles several test files as one

namespace {

long minor_faults() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

/// In a fresh child: tune the heap or not, then ten rounds of what a kept
/// child does per batch (allocate 4 MiB in blocks of 256 KiB, write them,
/// free them). Returns the page faults of rounds 2 to 10 per round, in
/// percent of round 1's.
int later_rounds_faults_percent(bool tuned) {
  int fd[2];
  if (::pipe(fd) != 0) return -1;
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (tuned) pv::tune_heap();
    constexpr int kBlocks = 16;
    constexpr std::size_t kBlock = std::size_t(256) << 10;
    long first = 0, later = 0;
    for (int round = 0; round < 10; ++round) {
      const long f0 = minor_faults();
      void* b[kBlocks];
      for (auto& p : b) {
        p = std::malloc(kBlock);
        std::memset(p, round + 1, kBlock);
      }
      for (int i = kBlocks; i-- > 0;) std::free(b[i]);
      (round == 0 ? first : later) += minor_faults() - f0;
    }
    const int percent = first > 0 ? int(100 * later / 9 / first) : -1;
    (void)!::write(fd[1], &percent, sizeof percent);
    ::_exit(0);
  }
  ::close(fd[1]);
  int percent = -1;
  if (::read(fd[0], &percent, sizeof percent) != sizeof percent) percent = -1;
  ::close(fd[0]);
  ::waitpid(pid, nullptr, 0);
  return percent;
}

}  // namespace

TEST(Heap, FreedBatchesKeepTheirPages) {
  if (pv::test::under_asan) GTEST_SKIP() << "ASan's allocator replaces glibc's: mallopt does not reach it";
  const int untuned = later_rounds_faults_percent(false), tuned = later_rounds_faults_percent(true);
  ASSERT_GE(untuned, 0);
  ASSERT_GE(tuned, 0);
  // glibc's defaults give the 4 MiB back each round (mapped apart, or the
  // heap trimmed): every round faults its pages in again. Tuned, they stay.
  std::printf("later rounds fault %d %% of the first untuned, %d %% tuned\n", untuned, tuned);
  EXPECT_GE(untuned, 50) << "the untuned heap kept its pages: this test no longer tells the tuning apart";
  EXPECT_LE(tuned, 5) << "page faults per later round, in percent of the first";
}

}  // namespace core_heap_test
