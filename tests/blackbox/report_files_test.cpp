// The files `posverify check` writes, against hostile plugins and hostile
// targets: text from the plugin stays inert in the Markdown, a long name
// still gives a file name, --junit and --save-baseline never replace a device
// or a FIFO, and a target that cannot take its file stops the run before it
// starts, replacing nothing. docs/reliability.md lists the cases.
#include "core/json.h"
#include "support/plugins.h"
#include "support/run_posverify.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace blackbox_report_files_test {  // this file's names: a unity build compiles several test files as one

namespace {

namespace fs = std::filesystem;
using pv::plugin_test::plugin_map;
using pv::plugin_test::slurp;

std::string hostile(const std::string& n) { return plugin_map(POSVERIFY_HOSTILE_PLUGINS).at(n); }
std::string builtin(const std::string& n) { return plugin_map(POSVERIFY_BUILTIN_PLUGINS).at(n); }

std::string fresh(const std::string& sub) { return pv::plugin_test::fresh_out_dir("files-" + sub); }

pv::test::run_result run(const std::string& args) { return pv::test::run_posverify("check " + args); }

/// `check --impl plain_double`, one law, 3 cases, into `dir`, then `extra`.
pv::test::run_result run_plain(const std::string& dir, const std::string& extra) {
  return run("--impl " + builtin("plain_double") + " --law attention.reference[float64] --cases 3 --out " + dir +
             " " + extra);
}

// Every file of a check names the posverify that wrote it at its top, the line
// `posverify --version` prints: JSON "build", the line under the Markdown
// title, the HTML header, a property of the JUnit suite.
TEST(CheckFiles, EveryFileNamesThePosverifyThatWroteIt) {
  auto v = pv::test::run_posverify("--version");
  ASSERT_EQ(v.code, 0) << v.out;
  ASSERT_FALSE(v.out.empty());
  const std::string line = v.out.substr(0, v.out.find('\n'));
  const std::string d = fresh("build-line");
  auto r = run_plain(d, "--junit " + d + "/junit.xml");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = pv::json::parse(slurp(d + "/builtin-plain-double.json"));
  ASSERT_TRUE(j.find("build")) << slurp(d + "/builtin-plain-double.json").substr(0, 300);
  EXPECT_EQ(j.find("build")->as_string(), line);
  const std::string md = slurp(d + "/builtin-plain-double.md");
  EXPECT_EQ(md.rfind("# posverify check: builtin-plain-double\n\n`" + line + "`\n\n", 0), 0u) << md.substr(0, 300);
  EXPECT_NE(slurp(d + "/builtin-plain-double.html").find("<p class=\"build\"><code>" + line + "</code></p>"),
            std::string::npos);
  EXPECT_NE(slurp(d + "/junit.xml").find("<property name=\"posverify\" value=\"" + line + "\"/>"), std::string::npos)
      << slurp(d + "/junit.xml").substr(0, 600);
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)
#define EXPECT_HASNT(text, part) EXPECT_EQ((text).find(part), std::string::npos) << (text)

TEST(CheckReportFiles, HtmlInThePluginsStderrIsInertInTheMarkdown) {
  const std::string dir = fresh("html-stderr");
  auto r = run("--impl " + hostile("html_stderr") + " --law attention.reference --cases 3 --out " + dir);
  EXPECT_EQ(r.code, 1) << r.out;
  const std::string md = slurp(dir + "/hostile-html-stderr.md");
  ASSERT_FALSE(md.empty()) << r.out;
  EXPECT_HAS(md, "&lt;script>alert(1)");
  EXPECT_HAS(md, "&lt;img src=x onerror=alert(2)>");
  EXPECT_HAS(md, "&lt;img src=y onerror=alert(3)>");  // after an escaped backtick: no code span
  EXPECT_HAS(md, "&lt;!-- swallow");
  EXPECT_HASNT(md, "<script");
  EXPECT_HASNT(md, "<img");
  EXPECT_HASNT(md, "<!--");
  // the JSON keeps the text as the plugin wrote it
  EXPECT_HAS(slurp(dir + "/hostile-html-stderr.json"), "<script>alert(1)</script>");
}

TEST(CheckReportFiles, AnOverlongNameGivesAShortFileName) {
  const std::string dir = fresh("long-name");
  auto r = run("--impl " + hostile("long_name") + " --law attention.reference --cases 3 --out " + dir);
  EXPECT_EQ(r.code, 0) << r.out;
  int reports = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    EXPECT_LE(f.size(), 110u) << f;
    if (e.path().extension() == ".json") {
      ++reports;
      // the report keeps the whole name, escaped
      const std::string name = pv::json::parse(slurp(e.path().string())).find("implementation")->find("name")->as_string();
      EXPECT_EQ(name.size(), 800u) << name;
    }
  }
  EXPECT_EQ(reports, 1);
}

/// Reads a FIFO while posverify runs (a reader that was there all along).
struct fifo_reader {
  explicit fifo_reader(const std::string& path) : fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK)) {
    t = std::thread([this] {
      char buf[4096];
      for (;;) {
        const ssize_t n = fd >= 0 ? ::read(fd, buf, sizeof buf) : 0;
        if (n > 0) {
          got.append(buf, std::size_t(n));
          continue;
        }
        if (stop) break;  // drained after posverify ended
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    });
  }
  std::string finish() {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stop = true;
    t.join();
    if (fd >= 0) ::close(fd);
    return got;
  }
  int fd;
  std::atomic<bool> stop{false};
  std::string got;
  std::thread t;
};

TEST(CheckReportFiles, JunitIntoAFifoAndBaselineIntoADeviceAreWrittenInPlace) {
  const std::string dir = fresh("in-place");
  const std::string fifo = dir + "/junit.fifo", devnull = dir + "/null";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  fs::create_symlink("/dev/null", devnull);  // stands for /dev/null itself (never touched)
  fifo_reader reader(fifo);
  ASSERT_GE(reader.fd, 0);
  auto r = run_plain(dir, "--junit " + fifo + " --save-baseline " + devnull);
  const std::string xml = reader.finish();
  EXPECT_EQ(r.code, 0) << r.out;
  struct stat st{};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced by a file";
  EXPECT_HAS(xml, "<testsuite");
  EXPECT_HAS(xml, "attention.reference");
  ASSERT_TRUE(fs::is_symlink(devnull)) << "the link to /dev/null was replaced by a file";
  EXPECT_EQ(fs::read_symlink(devnull), "/dev/null");
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  // no temporary file is left beside them
  for (const auto& e : fs::directory_iterator(dir)) EXPECT_HASNT(e.path().string(), ".tmp.");
}

TEST(CheckReportFiles, AFifoWithoutAReaderIsAnErrorNotAWait) {
  const std::string dir = fresh("fifo-no-reader");
  const std::string fifo = dir + "/junit.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  auto r = run_plain(dir, "--junit " + fifo);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_HAS(r.out, "a FIFO without a reader");
  struct stat st{};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(CheckReportFiles, AFolderWhereAReportGoesStopsTheRunAndReplacesNothing) {
  const std::string dir = fresh("folder-target");
  const std::string base = dir + "/builtin-plain-double";
  std::ofstream(base + ".json") << "old json";
  std::ofstream(base + ".md") << "old md";
  fs::create_directory(base + ".html");
  auto r = run_plain(dir, "");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_HAS(r.out, base + ".html': it is a folder");
  EXPECT_HASNT(r.out, "attention.reference[float64]  (");  // no law ran
  EXPECT_EQ(slurp(base + ".json"), "old json");
  EXPECT_EQ(slurp(base + ".md"), "old md");
}

TEST(CheckReportFiles, ABadJunitOrBaselineTargetIsFoundBeforeTheRun) {
  const std::string dir = fresh("bad-junit");
  for (const std::string flag : {"--junit", "--save-baseline"}) {
    auto r = run_plain(dir, flag + " " + dir + "/no/such/folder/x.xml");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_HAS(r.out, flag + ": cannot write '" + dir + "/no/such/folder/x.xml': its folder '" + dir +
                          "/no/such/folder' does not exist");
    EXPECT_HASNT(r.out, "attention.reference[float64]  (");  // found before the run
    r = run_plain(dir, flag + " " + dir);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_HAS(r.out, flag + ": cannot write '" + dir + "': it is a folder");
  }
  EXPECT_FALSE(fs::exists(dir + "/builtin-plain-double.json")) << "nothing is written";
}

}  // namespace

}  // namespace blackbox_report_files_test
