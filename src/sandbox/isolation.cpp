#include "sandbox/isolation.h"

#include "sandbox/batch_wire.h"
#include "sandbox/framing.h"
#include "sandbox/process_adapter.h"

#include "core/heap.h"
#include "core/text.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace pv::sandbox {

namespace {

// --- the live children, for the signal handlers ---------------------------

volatile std::sig_atomic_t g_live[8] = {};
int g_subreaper_probe = 0;  ///< PR_GET_CHILD_SUBREAPER's answer

void register_child(pid_t pid) {
  for (auto& s : g_live)
    if (s == 0) {
      s = pid;
      return;
    }
}
void unregister_child(pid_t pid) {
  for (auto& s : g_live)
    if (s == pid) s = 0;
}

extern "C" void on_terminating_signal(int sig) {
  kill_live_children();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// --- in the child -----------------------------------------------------------

/// Bytes of data segment this process has (VmData), 0 if unknown.
std::uint64_t vm_data_bytes() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  unsigned long long kb = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmData: %llu kB", &kb) == 1) break;
  std::fclose(f);
  return std::uint64_t(kb) * 1024;
}

/// The clean start of a child: default signal dispositions, its own process
/// group, death with the parent, no core files, its heap tuned (core/heap.h),
/// a data-size limit, and a file table of stdin/stdout on /dev/null, stderr
/// on err_w, the results on kResultFd and nothing else.
void child_setup(int res_w, int err_w, int cmd_r, const runner_options& o, std::uint64_t data_base, pid_t parent) {
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) ::signal(s, SIG_DFL);
  for (auto& s : g_live) s = 0;  // posverify's children are not this one's
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);  // posverify died before prctl
  rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  tune_heap();
  if (o.memory_limit) {
    rlimit data{};
    ::getrlimit(RLIMIT_DATA, &data);
    // the heap's pad on top: address space the heap reserves, not memory used
    const rlim_t want = rlim_t(data_base + o.memory_limit + kHeapPad);
    if (data.rlim_max == RLIM_INFINITY || want < data.rlim_max) data.rlim_cur = want;
    else data.rlim_cur = data.rlim_max;
    ::setrlimit(RLIMIT_DATA, &data);
  }
  if (cmd_r >= 0) ::dup2(cmd_r, kCommandFd);
  ::dup2(res_w, kResultFd);
  const int kept = adopt_server_fds(kResultFd + 1);  // a server's pipes (process_adapter.h)
  ::dup2(err_w, 2);
  int devnull = ::open("/dev/null", O_RDWR);
  if (devnull >= 0) {
    ::dup2(devnull, 0);
    ::dup2(devnull, 1);
  }
  const int low = cmd_r >= 0 ? kCommandFd : kResultFd;  // the first descriptor kept from 3 up
  if (::close_range(3, low - 1, 0) != 0 || ::close_range(kResultFd + 1 + kept, ~0U, 0) != 0)
    for (int fd = 3; fd < 65536; ++fd)
      if (fd < low || fd > kResultFd + kept) ::close(fd);
}

}  // namespace

std::string describe_exit(int wstatus) {
  if (WIFSIGNALED(wstatus)) {
    int s = WTERMSIG(wstatus);
    const char* nm = ::strsignal(s);
    return "killed by signal " + std::to_string(s) + " (" + (nm ? nm : "?") + ")";
  }
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == kExitChannelLost)
    return "the process could not send its result to posverify (exit status " + std::to_string(kExitChannelLost) +
           ": the library closed or replaced the result channel, fd " + std::to_string(kResultFd) + ")";
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == kExitBadBatch)
    return "the process could not read its calls from posverify (exit status " + std::to_string(kExitBadBatch) +
           ": the library read from or closed the command channel, fd " + std::to_string(kCommandFd) + ")";
  if (WIFEXITED(wstatus)) return "the process exited with status " + std::to_string(WEXITSTATUS(wstatus));
  return "the process ended";
}

void child_proc::reap() {
  rusage ru{};
  if (::wait4(pid, &ws, 0, &ru) == pid) stats().last_peak_rss_kib = ru.ru_maxrss;
}

void child_proc::kill_group() const {
  if (pid > 0 && ::kill(-pid, SIGKILL) != 0) ::kill(pid, SIGKILL);
}

bool child_proc::check_dead() {
  if (dead || pid <= 0) return dead;
  siginfo_t si{};
  if (::waitid(P_PID, id_t(pid), &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid) {
    kill_group();
    reap();
    dead = true;
  }
  return dead;
}

void child_proc::drain_err() {
  char buf[4096];
  while (err >= 0) {
    ssize_t n = ::read(err, buf, sizeof buf);
    if (n > 0) {
      tail.append(buf, std::size_t(n));
      if (tail.size() > 2 * kTailBytes) {
        tail.erase(0, tail.size() - kTailBytes);
        tail_cut = true;
      }
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      if (n == 0) {  // every writer closed it
        ::close(err);
        err = -1;
      }
      return;
    }
  }
}

std::string child_proc::stderr_tail(std::size_t index) {
  drain_err();
  std::string t = tail;
  bool cut = tail_cut;
  if (index != std::string::npos) {
    const std::string m = stderr_marker(index);
    if (auto p = t.find(m); p != std::string::npos) {
      t.erase(0, p + m.size());
      cut = false;
    }
    if (auto q = t.find('\x1e'); q != std::string::npos) t.erase(q);  // the next call's
  }
  if (t.size() > kTailBytes) {
    t.erase(0, t.size() - kTailBytes);
    cut = true;
  }
  if (cut) {  // start at a line
    std::size_t nl = t.find('\n');
    if (nl != std::string::npos && nl + 1 < t.size()) t.erase(0, nl + 1);
  }
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
  std::size_t start = t.size();
  for (int lines = 0; start > 0; --start)
    if (t[start - 1] == '\n' && ++lines == kTailLines) break;
  if (start > 0) cut = true;
  t.erase(0, start);
  if (t.empty()) return "";
  return std::string("its stderr ended with") + (cut ? " (last lines)" : "") + ": \"" + text::visible(t) + "\"";
}

child_proc::rd child_proc::read_exact(void* p, std::size_t n, std::chrono::steady_clock::time_point deadline) {
  char* c = static_cast<char*>(p);
  while (n) {
    if (ahead_at < ahead_end) {
      const std::size_t k = std::min(n, ahead_end - ahead_at);
      std::memcpy(c, ahead.get() + ahead_at, k);
      ahead_at += k;
      c += k;
      n -= k;
      continue;
    }
    if (!res_eof) {  // res is non-blocking: what is there, or EAGAIN
      const bool direct = n >= kAhead;  // a large output goes straight to its place
      if (!direct && !ahead) ahead.reset(new char[kAhead]);
      const ssize_t got = ::read(res, direct ? c : ahead.get(), direct ? n : kAhead);
      if (!direct) {
        ahead_at = 0;
        ahead_end = got > 0 ? std::size_t(got) : 0;
      }
      if (got > 0) {
        if (direct) c += got, n -= std::size_t(got);
        continue;
      }
      if (got < 0 && errno == EINTR) continue;
      if (got == 0 || errno != EAGAIN) res_eof = true;
    }
    if (dead) return rd::dead;  // and nothing left to read
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return rd::timeout;
    pollfd f[2];
    nfds_t k = 0;
    if (!res_eof) f[k++] = {res, POLLIN, 0};
    if (err >= 0) f[k++] = {err, POLLIN, 0};
    // a short slice: the child's death is watched by waitid, not by the
    // pipe (a grandchild may hold the pipe open)
    if (::poll(f, k, int(std::min<long long>(left, 50))) < 0 && errno != EINTR) return rd::timeout;
    drain_err();
    check_dead();  // when dead, the next pass reads what is left
  }
  return rd::ok;
}

void child_proc::finish() {
  if (pid > 0) {
    if (!dead) {
      kill_group();
      reap();
      dead = true;
    }
    unregister_child(pid);
    pid = -1;
  }
  if (res >= 0) ::close(res);
  if (err >= 0) ::close(err);
  res = err = -1;
  ahead_at = ahead_end = 0;
}

bool spawn(child_proc& c, const runner_options& o, int cmd_r) {
  int rp[2], ep[2];
  if (::pipe2(rp, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (::pipe2(ep, O_CLOEXEC) != 0) {
    ::close(rp[0]);
    ::close(rp[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  const std::uint64_t base = o.memory_limit ? vm_data_bytes() : 0;
  const pid_t parent = ::getpid();
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    for (int fd : {rp[0], rp[1], ep[0], ep[1]}) ::close(fd);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    child_setup(rp[1], ep[1], cmd_r, o, base, parent);
    return true;
  }
  ::setpgid(pid, pid);  // also done by the child: whichever runs first
  register_child(pid);
  ++stats().children;
  ::close(rp[1]);
  ::close(ep[1]);
  c.pid = pid;
  c.res = rp[0];
  c.err = ep[0];
  ::fcntl(c.res, F_SETFL, ::fcntl(c.res, F_GETFL) | O_NONBLOCK);
  ::fcntl(c.err, F_SETFL, ::fcntl(c.err, F_GETFL) | O_NONBLOCK);
  return false;
}

std::string aftermath(child_proc& c, const runner_options& o, std::size_t index) {
  std::string s;
  if (c.enomem)
    s += "; an allocation had just failed (ENOMEM): the child hit the memory limit of " +
         size_text(o.memory_limit) + " (--memory-limit)";
  std::string t = c.stderr_tail(index);
  if (!t.empty()) s += "; " + t;
  return s;
}

void track_child_group(pid_t pid) { register_child(pid); }
void untrack_child_group(pid_t pid) { unregister_child(pid); }

namespace {

/// The children of this process (of its main thread, which forks them all),
/// from /proc/self/task/PID/children; at most `cap`. Async-signal-safe.
int read_children(pid_t* out, int cap) {
  char path[64] = "/proc/self/task/";
  char digits[16];
  int nd = 0;
  for (long v = long(::getpid()); v > 0 && nd < 15; v /= 10) digits[nd++] = char('0' + v % 10);
  std::size_t at = std::strlen(path);
  while (nd > 0) path[at++] = digits[--nd];
  std::memcpy(path + at, "/children", 10);
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[4096];
  int n = 0;
  long cur = -1;
  for (;;) {
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    for (ssize_t i = 0; i < got; ++i) {
      if (buf[i] >= '0' && buf[i] <= '9') {
        cur = (cur < 0 ? 0 : cur * 10) + (buf[i] - '0');
      } else if (cur >= 0) {
        if (n < cap) out[n++] = pid_t(cur);
        cur = -1;
      }
    }
  }
  if (cur >= 0 && n < cap) out[n++] = pid_t(cur);
  ::close(fd);
  return n;
}

/// Kills every descendant left. posverify is a child subreaper
/// (install_signal_handlers): a process that left the plugin's group
/// (setsid, or setpgid into posverify's own group) becomes posverify's child
/// when its parent dies, so that it ends here instead of outliving the run
/// (and, say, rewriting the reports). Each round kills and reaps the
/// children; their own children are re-parented here by then. Bounded: at
/// most 64 rounds of 2 s. Async-signal-safe.
void kill_descendants() {
  pid_t kids[256];
  for (int round = 0; round < 64; ++round) {
    const int n = read_children(kids, 256);
    if (n == 0) return;
    for (int i = 0; i < n; ++i) ::kill(kids[i], SIGKILL);
    for (int i = 0; i < n; ++i)
      for (int tries = 0; tries < 200; ++tries) {  // 2 s: a process in uninterruptible sleep is left
        const pid_t r = ::waitpid(kids[i], nullptr, WNOHANG);
        if (r != 0) break;
        timespec ts{0, 10 * 1000 * 1000};
        ::nanosleep(&ts, nullptr);
      }
  }
}

}  // namespace

void kill_live_children() {
  for (auto& s : g_live) {
    const pid_t p = s;
    if (p > 0) ::kill(-p, SIGKILL);
  }
  if (::prctl(PR_GET_CHILD_SUBREAPER, &g_subreaper_probe) == 0 && g_subreaper_probe) kill_descendants();
}

void install_signal_handlers() {
  static bool done = false;
  if (done) return;
  done = true;
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  struct sigaction sa{};
  sa.sa_handler = on_terminating_signal;
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaction(s, &sa, nullptr);
  std::atexit(kill_live_children);
}

}  // namespace pv::sandbox
