// posverify --version and -V: one line naming the release, the commit, the
// plugin ABI and pipe protocol versions and the numeric libraries, each
// read from what the binary was built with, exit 0.
#include "cli/commands.h"
#include "posverify/impl.h"
#include "sandbox/process_adapter.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>
#include <mpfi.h>
#include <mpfr.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>

namespace cli_version_test {  // this file's names: a unity build compiles several test files as one

namespace {

std::string shell_out(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[256];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

TEST(Version, NamesReleaseAbiProtocolAndLibraries) {
  const std::string v = pv::cli::version_text();
  EXPECT_EQ(v.rfind(std::string("posverify ") + POSVERIFY_VERSION + " (commit ", 0), 0u) << v;
  EXPECT_NE(v.find("plugin ABI " + std::to_string(PV_ABI_VERSION) + ","), std::string::npos) << v;
  EXPECT_NE(v.find("pipe protocol " + std::to_string(pv::sandbox::kProtocolVersion) + ","), std::string::npos) << v;
  EXPECT_NE(v.find(std::string("MPFR ") + mpfr_get_version() + ","), std::string::npos) << v;
  EXPECT_NE(v.find(std::string("MPFI ") + mpfi_get_version() + ","), std::string::npos) << v;
  EXPECT_TRUE(std::regex_search(v, std::regex(R"(, GMP [0-9]+\.[0-9]+\.[0-9]+, Boost 1\.[0-9]+\.[0-9]+\)$)"))) << v;
}

// In a git checkout the commit is the checkout's HEAD (with -dirty when the
// tracked files differ), not "unknown".
TEST(Version, CommitIsTheCheckoutsHead) {
  const std::string src = POSVERIFY_SOURCE_DIR;
  if (!std::filesystem::exists(src + "/.git")) GTEST_SKIP() << src << " is not a git checkout";
  const std::string head = shell_out("git -C '" + src + "' rev-parse --short=12 HEAD 2>/dev/null");
  if (head.empty()) GTEST_SKIP() << "git cannot read " << src;
  const std::string v = pv::cli::version_text();
  EXPECT_TRUE(v.find("(commit " + head + ",") != std::string::npos ||
              v.find("(commit " + head + "-dirty,") != std::string::npos)
      << v << " (HEAD is " << head << "; a build older than HEAD prints the older commit)";
}

TEST(Version, LongAndShortFlagPrintTheLineAndExitZero) {
  for (const char* flag : {"--version", "-V"}) {
    auto r = pv::test::run_posverify(flag);
    EXPECT_EQ(r.code, 0) << flag << ": " << r.out;
    EXPECT_EQ(r.out, pv::cli::version_text() + "\n") << flag;
  }
}

}  // namespace

}  // namespace cli_version_test
