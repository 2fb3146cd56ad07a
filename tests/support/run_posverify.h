// Runs the posverify binary of the build (POSVERIFY_BIN, set by ctest) with
// arguments, for the end-to-end tests.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>

namespace pv::test {

struct run_result {
  int code = -1;    ///< exit status; -1 when killed by a signal
  std::string out;  ///< stdout and stderr
};

inline std::string posverify_bin() {
  const char* b = std::getenv("POSVERIFY_BIN");
  return b ? b : "posverify";
}

/// `PREFIX posverify ARGS` through the shell (ARGS is quoted by the caller;
/// PREFIX is shell code run first, e.g. "ulimit -v N; "). GoogleTest's shard
/// variables are not passed on (posverify would run one shard of its laws,
/// docs/scaling.md) unless PREFIX sets them.
inline run_result run_posverify_in(const std::string& prefix, const std::string& args) {
  run_result r;
  const std::string cmd = "unset GTEST_SHARD_INDEX GTEST_TOTAL_SHARDS; " + prefix + posverify_bin() + " " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = ::pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

/// True in a build with AddressSanitizer (GCC's macro, clang's feature test).
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool under_asan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool under_asan = true;
#else
inline constexpr bool under_asan = false;
#endif
#else
inline constexpr bool under_asan = false;
#endif

/// "ulimit -v KB; " as a prefix for run_posverify_in, or nothing under ASan:
/// its shadow memory alone reserves terabytes of address space, so under any
/// such limit the binary aborts before main (exit 134). Tests using it must
/// also bound time (`timeout N`), which catches a runaway allocation there.
inline std::string address_space_limit(long kb) {
  return under_asan ? std::string() : "ulimit -v " + std::to_string(kb) + "; ";
}

/// `posverify ARGS` through the shell.
inline run_result run_posverify(const std::string& args) { return run_posverify_in("", args); }

}  // namespace pv::test
