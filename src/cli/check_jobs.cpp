// `posverify check` on several cores (check_jobs.h): workers are this program
// run again as shards of the run, merged as `posverify merge` merges.
#include "cli/check_jobs.h"

#include "blackbox/accuracy.h"
#include "core/files.h"
#include "core/input.h"
#include "reports/check_report.h"
#include "reports/merge_reports.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sched.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace pv::cli {

namespace {

namespace fs = std::filesystem;

/// Removes the workers' folder however the run ends.
struct scratch_dir {
  std::string path;
  ~scratch_dir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

/// A new folder for the workers under $TMPDIR (else /tmp), removed with it.
scratch_dir make_scratch() {
  std::error_code ec;
  std::string tmpl = (fs::temp_directory_path(ec) / "posverify-check-XXXXXX").string();
  if (ec) tmpl = "/tmp/posverify-check-XXXXXX";
  if (!::mkdtemp(tmpl.data()))
    throw job_error("posverify: --jobs: cannot make a folder for the workers (" + tmpl + "): " + std::strerror(errno), 2);
  return scratch_dir{tmpl};
}

std::string read_or_empty(const std::string& path) {
  try {
    return read_regular_file(path, max_report_bytes);
  } catch (const std::runtime_error&) {
    return "";
  }
}

/// The counts of check's last line, "(12.3 s, 40 child processes, 5000
/// calls)", from a worker's standard output; 0 when it has none.
void add_counts(const std::string& out, long& children, long& calls) {
  const auto at = out.rfind(" child processes, ");
  if (at == std::string::npos) return;
  const auto comma = out.rfind(", ", at);
  if (comma == std::string::npos) return;
  children += std::strtol(out.c_str() + comma + 2, nullptr, 10);
  calls += std::strtol(out.c_str() + at + 18, nullptr, 10);
}

/// Starts `argv` with standard output and error in those files; its pid.
pid_t spawn(const std::vector<std::string>& argv, const std::string& out, const std::string& err) {
  std::vector<char*> p;
  for (const auto& a : argv) p.push_back(const_cast<char*>(a.c_str()));
  p.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw job_error(std::string("posverify: cannot start a check worker: ") + std::strerror(errno), 2);
  if (pid == 0) {
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (o < 0 || e < 0 || ::dup2(o, STDOUT_FILENO) < 0 || ::dup2(e, STDERR_FILENO) < 0) ::_exit(126);
    ::execv("/proc/self/exe", p.data());
    const std::string why = std::string("posverify: cannot run /proc/self/exe: ") + std::strerror(errno) + "\n";
    (void)!::write(STDERR_FILENO, why.data(), why.size());
    ::_exit(127);
  }
  return pid;
}

}  // namespace

int available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? int(n) : 1;
}

int parse_jobs(const std::string& what, const std::string& value) {
  if (value == "auto") return std::min(available_cores(), max_jobs);
  return int(parse_u64(what, value, 1, max_jobs));
}

int default_jobs(bool server) {
  const char* v = std::getenv("POSVERIFY_JOBS");
  return v && *v ? parse_jobs("POSVERIFY_JOBS", v) : server ? 1 : parse_jobs("--jobs", "auto");
}

jobs_output run_in_jobs(const blackbox::check_run& cx, const std::vector<std::string>& worker_args, int jobs,
                        const std::string& report_name, const std::function<void()>& step) {
  const scratch_dir scratch = make_scratch();
  const std::string n = std::to_string(jobs);
  // the workers' finished units, one byte each: the read end stays here, the
  // write end is theirs (named by progress_fd_variable)
  int tick[2] = {-1, -1};
  if (step && ::pipe2(tick, O_CLOEXEC) == 0) {
    const int w = ::fcntl(tick[1], F_DUPFD, 3);  // without O_CLOEXEC: the workers inherit it
    ::close(tick[1]);
    tick[1] = w;
    if (w >= 0) ::setenv(progress_fd_variable, std::to_string(w).c_str(), 1);
  }
  std::vector<pid_t> pids;
  for (int k = 1; k <= jobs; ++k) {
    const std::string dir = scratch.path + "/" + std::to_string(k);
    std::vector<std::string> argv = {"posverify", "check"};
    argv.insert(argv.end(), worker_args.begin(), worker_args.end());
    // the run's own values (a baseline may have set or widened them)
    for (const std::string& a :
         {std::string("--seed"), std::to_string(cx.seed), std::string("--cases"), std::to_string(cx.cases),
          std::string("--max-position"), std::to_string(static_cast<unsigned long long>(cx.max_position)),
          std::string("--min-cases"), std::to_string(cx.min_cases), std::string("--jobs"), std::string("1"),
          std::string("--shard"), std::to_string(k) + "/" + n, std::string("--out"), dir})
      argv.push_back(a);
    pids.push_back(spawn(argv, scratch.path + "/" + std::to_string(k) + ".out", scratch.path + "/" + std::to_string(k) + ".err"));
  }
  ::unsetenv(progress_fd_variable);
  if (tick[1] >= 0) ::close(tick[1]);
  std::vector<int> status(pids.size(), 0);
  std::vector<bool> ended(pids.size(), false);
  for (std::size_t left = pids.size(); left > 0;) {
    if (tick[0] >= 0) {  // the ticks until every worker has ended (a plugin's child may hold the pipe open)
      pollfd p{tick[0], POLLIN, 0};
      if (::poll(&p, 1, 100) > 0) {
        char b[256];
        const ssize_t got = ::read(tick[0], b, sizeof b);
        for (ssize_t i = 0; i < got; ++i) step();
        if (got == 0) {  // every write end closed: only the reaping is left
          ::close(tick[0]);
          tick[0] = -1;
        }
      }
    }
    for (std::size_t k = 0; k < pids.size(); ++k)
      if (!ended[k] && ::waitpid(pids[k], &status[k], tick[0] >= 0 ? WNOHANG : 0) == pids[k]) ended[k] = true, --left;
  }
  if (tick[0] >= 0) ::close(tick[0]);
  jobs_output out;
  std::vector<std::pair<std::string, std::string>> reports;
  for (std::size_t k = 0; k < pids.size(); ++k) {
    const std::string base = scratch.path + "/" + std::to_string(k + 1);
    const std::string err = read_or_empty(base + ".err");
    const int s = status[k];
    const bool ran = WIFEXITED(s) && (WEXITSTATUS(s) == 0 || WEXITSTATUS(s) == 1);
    if (!ran) {  // its own words when it said why (a usage error: exit 2), else how it ended
      const std::string how = WIFSIGNALED(s) ? "was killed by signal " + std::to_string(WTERMSIG(s))
                                             : "exited with code " + std::to_string(WEXITSTATUS(s));
      const std::string shard = "--shard " + std::to_string(k + 1) + "/" + n;
      throw job_error(WIFEXITED(s) && WEXITSTATUS(s) == 2 && !err.empty()
                          ? err
                          : "posverify: worker " + std::to_string(k + 1) + " of " + n + " (check " + shard + ") " + how +
                                (err.empty() ? std::string("\n") : "; it said:\n" + err),
                      2);
    }
    std::cerr << err;
    add_counts(read_or_empty(base + ".out"), out.children, out.calls);
    const std::string file = base + "/" + report_name + ".json";
    try {
      reports.emplace_back(file, read_regular_file(file, max_report_bytes));
    } catch (const std::runtime_error& e) {  // it ended as a run ends, without its report
      throw job_error("posverify: worker " + std::to_string(k + 1) + " of " + n + " wrote no report: " + e.what(), 2);
    }
  }
  try {
    const reports::merged_run m = reports::merge_reports(reports);
    blackbox::check_run read = cx;
    out.run = reports::run_of_json(m.report, read);
    // the class the run resolved (--accuracy, else the plugin's declaration:
    // blackbox/run.cpp), as the workers wrote it
    const json* acc = m.report.find("options") ? m.report.find("options")->find("accuracy") : nullptr;
    if (!acc || acc->type() != json::kind::string)
      throw std::runtime_error("options.accuracy: expected a string");
    out.accuracy = acc->as_string() == "dtype" ? blackbox::accuracy_class{} : blackbox::parse_accuracy(acc->as_string());
  } catch (const std::exception& e) {
    throw job_error(std::string("posverify: --jobs: the workers' reports do not join: ") + e.what(), 2);
  }
  out.run.lib = cx.lib;
  return out;
}

void run_units(const std::vector<std::string>& worker_args, const std::vector<std::vector<std::string>>& units,
               int jobs, const std::string& report_file,
               const std::function<void(std::size_t, const std::string&)>& done) {
  const scratch_dir scratch = make_scratch();
  const std::size_t n = units.size();
  auto named = [&](std::size_t k) {  // "the worker for LIB (--seed 3 --seeds 10)": the library comes last
    const auto& u = units[k];
    std::string t = "the worker for " + (u.empty() ? std::string("?") : u.back());
    for (std::size_t i = 0; i + 1 < u.size(); ++i) t += (i ? " " : " (") + u[i] + (i + 2 == u.size() ? ")" : "");
    return t;
  };
  std::vector<pid_t> pid(n, -1);
  std::vector<int> status(n, 0);
  std::vector<bool> ended(n, false);
  auto base = [&](std::size_t k) { return scratch.path + "/" + std::to_string(k + 1); };
  // the workers still running are killed if this ends early (a worker failed, an exception)
  struct reaper {
    std::vector<pid_t>& pid;
    std::vector<bool>& ended;
    ~reaper() {
      for (std::size_t k = 0; k < pid.size(); ++k)
        if (pid[k] > 0 && !ended[k]) {
          ::kill(pid[k], SIGTERM);
          ::waitpid(pid[k], nullptr, 0);
        }
    }
  } reap{pid, ended};
  std::size_t started = 0, reported = 0, running = 0;
  while (reported < n) {
    for (; running < std::size_t(jobs) && started < n; ++started, ++running) {
      std::vector<std::string> argv = {"posverify", "check"};
      argv.insert(argv.end(), worker_args.begin(), worker_args.end());
      for (const std::string& a : {std::string("--jobs"), std::string("1"), std::string("--out"), base(started)})
        argv.push_back(a);
      argv.insert(argv.end(), units[started].begin(), units[started].end());
      ::setenv(library_worker_variable, "1", 1);
      pid[started] = spawn(argv, base(started) + ".out", base(started) + ".err");
      ::unsetenv(library_worker_variable);
    }
    if (!ended[reported]) {  // wait for any worker; the first unreported one is among them
      int st = 0;
      const pid_t got = ::waitpid(-1, &st, 0);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw job_error(std::string("posverify: --jobs: waitpid: ") + std::strerror(errno), 2);
      for (std::size_t k = 0; k < started; ++k)
        if (pid[k] == got && !ended[k]) ended[k] = true, status[k] = st, --running;
      continue;
    }
    const std::size_t k = reported++;
    const std::string err = read_or_empty(base(k) + ".err");
    const int s = status[k];
    if (!(WIFEXITED(s) && (WEXITSTATUS(s) == 0 || WEXITSTATUS(s) == 1))) {
      const std::string how = WIFSIGNALED(s) ? "was killed by signal " + std::to_string(WTERMSIG(s))
                                             : "exited with code " + std::to_string(WEXITSTATUS(s));
      throw job_error(WIFEXITED(s) && WEXITSTATUS(s) == 2 && !err.empty()
                          ? err
                          : "posverify: " + named(k) + " " + how +
                                (err.empty() ? std::string("\n") : "; it said:\n" + err),
                      2);
    }
    std::cerr << err;
    std::string report;
    try {
      report = read_regular_file(base(k) + "/" + report_file, max_report_bytes);
    } catch (const std::runtime_error& e) {
      throw job_error("posverify: " + named(k) + " wrote no report: " + e.what(), 2);
    }
    done(k, report);
  }
}

}  // namespace pv::cli
