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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace core_files_test {  // this file's names: a unity build compiles several test files as one

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

TEST(WriteFilesAtomic, ConcurrentWritersLeaveTheSetOfOne) {
  // Processes writing the same set of files at once (two `check` runs into one
  // --out): afterwards every file must come from the same writer.
  const fs::path d = fresh_dir("concurrent");
  constexpr int files = 12, writers = 4, rounds = 60;
  int mixed = 0;
  for (int round = 0; round < rounds; ++round) {
    int go[2];
    ASSERT_EQ(::pipe(go), 0);
    std::vector<pid_t> kids;
    for (int w = 0; w < writers; ++w) {
      const pid_t p = ::fork();
      if (p == 0) {
        ::close(go[1]);
        char c;
        (void)!::read(go[0], &c, 1);  // all start together
        std::vector<std::pair<std::string, std::string>> set;
        for (int f = 0; f < files; ++f)
          set.emplace_back((d / ("r" + std::to_string(f))).string(), "writer " + std::to_string(w));
        try {
          pv::write_files_atomic(set);
        } catch (...) {
          ::_exit(1);
        }
        ::_exit(0);
      }
      kids.push_back(p);
    }
    ::close(go[0]);
    ::close(go[1]);  // EOF: every writer goes
    for (pid_t p : kids) {
      int ws = 0;
      ::waitpid(p, &ws, 0);
      EXPECT_TRUE(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    }
    const std::string first = slurp(d / "r0");
    for (int f = 1; f < files; ++f)
      if (slurp(d / ("r" + std::to_string(f))) != first) {
        ++mixed;
        break;
      }
  }
  EXPECT_EQ(mixed, 0) << "in " << mixed << " of " << rounds << " rounds the files came from different writers";
}

TEST(WriteFilesAtomic, AFolderInTheWayOfOneFileReplacesNone) {
  const fs::path d = fresh_dir("folder");
  const std::string json = (d / "r.json").string(), md = (d / "r.md").string(), html = (d / "r.html").string();
  pv::write_files_atomic({{json, "old json"}, {md, "old md"}});
  fs::create_directory(html);
  std::string what;
  try {
    pv::write_files_atomic({{json, "new json"}, {md, "new md"}, {html, "new html"}});
  } catch (const std::runtime_error& e) {
    what = e.what();
  }
  EXPECT_EQ(what, "cannot write '" + html + "': it is a folder");
  EXPECT_EQ(slurp(json), "old json");
  EXPECT_EQ(slurp(md), "old md");
  int n = 0;
  for (const auto& e : fs::directory_iterator(d)) ++n, (void)e;
  EXPECT_EQ(n, 3) << "a temporary file was left behind";
}

TEST(WriteFilesAtomic, ALinkToAFileKeepsTheLinkAndReplacesTheFile) {
  const fs::path d = fresh_dir("link");
  fs::create_directory(d / "real");
  const std::string file = (d / "real" / "x.xml").string(), link = (d / "x.xml").string();
  std::ofstream(file) << "old";
  fs::create_symlink(file, link);
  pv::write_file_atomic(link, "new");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(slurp(file), "new");
}

TEST(ReadRegularFile, DevicesFifosAndLongFilesAreRefusedWithoutWaiting) {
  const fs::path d = fresh_dir("read");
  const std::string fifo = (d / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  for (const std::string& p : {std::string("/dev/zero"), fifo}) {
    std::string what;
    try {
      pv::read_regular_file(p, 1000);
    } catch (const std::runtime_error& e) {
      what = e.what();
    }
    EXPECT_EQ(what, "cannot read '" + p + "': not a regular file (a device, a FIFO or a socket)");
  }
  const std::string big = (d / "big").string();
  std::ofstream(big) << std::string(2000, 'x');
  EXPECT_THROW(pv::read_regular_file(big, 1000), std::runtime_error);
  EXPECT_EQ(pv::read_regular_file(big, 2000).size(), 2000u);
}

}  // namespace

}  // namespace core_files_test
