// The report writer under a full disk and under concurrent runs: the files of
// one run change together or not at all, and two runs creating the same new
// output folder both succeed.
#include "core/files.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/resource.h>  // RLIMIT_FSIZE: a "full disk" for this process
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("posverify-report-write-" + std::to_string(::getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(WriteFilesAtomic, FullDiskLeavesEveryOldFile) {
  const fs::path d = fresh_dir("full");
  const std::string json = (d / "claims.json").string(), md = (d / "claims.md").string();
  pv::write_files_atomic({{json, "old json"}, {md, "old md"}});
  // a file-size limit makes write() fail with EFBIG, as a full disk fails with ENOSPC
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string what;
  try {
    // the first file fits, the second does not
    pv::write_files_atomic({{json, "new json"}, {md, std::string(100000, 'x')}});
  } catch (const std::runtime_error& e) {
    what = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_NE(what.find("cannot write " + md + ".tmp."), std::string::npos) << what;
  EXPECT_EQ(slurp(json), "old json");  // not replaced alone
  EXPECT_EQ(slurp(md), "old md");
  int files = 0;
  for (const auto& e : fs::directory_iterator(d)) ++files, (void)e;
  EXPECT_EQ(files, 2) << "a temporary file was left behind";
  // without the limit both change
  pv::write_files_atomic({{json, "new json"}, {md, "new md"}});
  EXPECT_EQ(slurp(json), "new json");
  EXPECT_EQ(slurp(md), "new md");
}

TEST(MakeOutDir, ConcurrentRunsIntoANewFolderBothSucceed) {
  const fs::path root = fresh_dir("race");
  for (int round = 0; round < 50; ++round) {
    const std::string dir = (root / std::to_string(round) / "a" / "b").string();
    std::vector<std::string> errors(4);
    std::vector<std::thread> runs;
    for (int t = 0; t < 4; ++t)
      runs.emplace_back([&, t] {
        try {
          pv::make_out_dir(dir, "--out");
        } catch (const std::exception& e) {
          errors[t] = e.what();
        }
      });
    for (auto& r : runs) r.join();
    for (const auto& e : errors) EXPECT_EQ(e, "");
    EXPECT_TRUE(fs::is_directory(dir));
  }
}

TEST(MakeOutDir, AFileInTheWayNamesTheOptionAndFolder) {
  const fs::path d = fresh_dir("file");
  const std::string f = (d / "plain").string();
  std::ofstream(f) << "x";
  std::string what;
  try {
    pv::make_out_dir(f, "--out");
  } catch (const std::runtime_error& e) {
    what = e.what();
  }
  EXPECT_EQ(what, "--out: '" + f + "' exists and is not a folder");
  try {
    pv::make_out_dir(f + "/sub", "--out");
    what.clear();
  } catch (const std::runtime_error& e) {
    what = e.what();
  }
  EXPECT_NE(what.find("--out: cannot create folder '" + f + "/sub'"), std::string::npos) << what;
}

}  // namespace
