#include "sandbox/sandbox.h"

#include "sandbox/process_adapter.h"

#include "core/text.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <sys/prctl.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pv::sandbox {

bool write_all(int fd, const void* p, std::size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n) {
    ssize_t w = ::write(fd, c, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    c += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

const char* to_string(op o) {
  switch (o) {
    case op::attention: return "attention";
    case op::rope: return "rope";
    case op::sinusoid: return "sinusoid";
  }
  return "?";
}

const char* to_string(status s) {
  switch (s) {
    case status::ok: return "ok";
    case status::unsupported: return "unsupported";
    case status::error_code: return "error-code";
    case status::crashed: return "crashed";
    case status::hung: return "hung";
    case status::guard: return "wrote-outside-buffer";
    case status::input_written: return "modified-input";
    case status::non_finite: return "non-finite-output";
    case status::garbled: return "garbled-result";
    case status::not_run: return "not-run";
  }
  return "?";
}

runner_stats& stats() {
  static runner_stats s;
  return s;
}

namespace {

std::size_t elem_size(pv_dtype t) { return t == PV_F32 ? 4 : t == PV_F64 ? 8 : 2; }

constexpr std::size_t kGuard = 256;
unsigned char guard_byte(std::size_t i) { return static_cast<unsigned char>(0xA5 ^ (i * 37)); }

/// A buffer with kGuard guard bytes on both sides.
struct guarded {
  unsigned char* base = nullptr;
  std::size_t n = 0;
  guarded(const void* src, std::size_t len, unsigned char fill) : n(len) {
    base = static_cast<unsigned char*>(std::malloc(len + 2 * kGuard + 64));
    for (std::size_t i = 0; i < kGuard; ++i) {
      base[i] = guard_byte(i);
      base[kGuard + len + i] = guard_byte(i + 7);
    }
    if (src) std::memcpy(base + kGuard, src, len);
    else std::memset(base + kGuard, fill, len);
  }
  ~guarded() { std::free(base); }
  guarded(const guarded&) = delete;
  guarded& operator=(const guarded&) = delete;
  unsigned char* data() { return base + kGuard; }
  /// "" when both guards are intact, else a description.
  std::string check(const char* what) const {
    std::size_t before = 0, after = 0;
    for (std::size_t i = 0; i < kGuard; ++i)
      if (base[i] != guard_byte(i)) { before = kGuard - i; break; }
    for (std::size_t i = kGuard; i-- > 0;)
      if (base[kGuard + n + i] != guard_byte(i + 7)) { after = i + 1; break; }
    std::string s;
    if (after)
      s += "wrote past the end of " + std::string(what) + " (" + std::to_string(n) +
           " bytes): guard bytes changed up to byte " + std::to_string(after) + " after it";
    if (before)
      s += std::string(s.empty() ? "" : "; ") + "wrote before the start of " + what +
           ": guard bytes changed from byte " + std::to_string(before) + " before it";
    return s;
  }
};

constexpr std::uint32_t kMagic = 0x31435650;  // "PVC1": the start of every record
constexpr std::uint32_t kNoteEnomem = 0x454E4F4D;  // a record that only says "ENOMEM"
/// The exit status of a child that could not write a result.
constexpr int kExitChannelLost = 120;

/// What the child writes to its stderr before call i, so that the parent
/// can tell which call said what.
std::string stderr_marker(std::size_t i) { return "\x1e" + std::to_string(i) + "\n"; }

struct wire_header {
  std::uint32_t magic;
  std::uint32_t index;
  std::int32_t rc;
  std::uint32_t st;
  std::uint32_t out_len;
  char detail[400];
};

void set_detail(wire_header& h, const std::string& s) {
  std::snprintf(h.detail, sizeof h.detail, "%s", s.c_str());
}

// --- the live children, for the signal handlers ---------------------------

volatile std::sig_atomic_t g_live[8] = {};

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
/// group, death with the parent, no core files, a data-size limit, and a
/// file table of stdin/stdout on /dev/null, stderr on err_w, the results on
/// kResultFd and nothing else.
void child_setup(int res_w, int err_w, const runner_options& o, std::uint64_t data_base, pid_t parent) {
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) ::signal(s, SIG_DFL);
  for (auto& s : g_live) s = 0;  // posverify's children are not this one's
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);  // posverify died before prctl
  rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  if (o.memory_limit) {
    rlimit data{};
    ::getrlimit(RLIMIT_DATA, &data);
    const rlim_t want = rlim_t(data_base + o.memory_limit);
    if (data.rlim_max == RLIM_INFINITY || want < data.rlim_max) data.rlim_cur = want;
    else data.rlim_cur = data.rlim_max;
    ::setrlimit(RLIMIT_DATA, &data);
  }
  ::dup2(res_w, kResultFd);
  const int kept = adopt_server_fds(kResultFd + 1);  // a server's pipes (process_impl.h)
  ::dup2(err_w, 2);
  int devnull = ::open("/dev/null", O_RDWR);
  if (devnull >= 0) {
    ::dup2(devnull, 0);
    ::dup2(devnull, 1);
  }
  if (::close_range(3, kResultFd - 1, 0) != 0 || ::close_range(kResultFd + 1 + kept, ~0U, 0) != 0)
    for (int fd = 3; fd < 65536; ++fd)
      if (fd < kResultFd || fd > kResultFd + kept) ::close(fd);
}

/// Written by the child's fatal-signal handler when errno says an allocation
/// failed (the memory limit); index set before each call.
wire_header g_note{};

extern "C" void on_child_fatal_signal(int sig) {
  if (errno == ENOMEM) (void)!::write(kResultFd, &g_note, sizeof g_note);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void arm_enomem_note() {
  g_note.magic = kMagic;
  g_note.st = kNoteEnomem;
  struct sigaction sa{};
  sa.sa_handler = on_child_fatal_signal;
  sa.sa_flags = SA_RESETHAND | SA_NODEFER;
  for (int s : {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE}) ::sigaction(s, &sa, nullptr);
}

/// Sends one record; a child that cannot says so on stderr and exits with
/// kExitChannelLost.
void send(std::size_t index, const wire_header& h, const std::vector<unsigned char>& out) {
  if (write_all(kResultFd, &h, sizeof h) && write_all(kResultFd, out.data(), out.size())) return;
  const int e = errno;
  std::fprintf(stderr, "posverify child: cannot send the result of call %zu: write to fd %d: %s\n", index,
               kResultFd, std::strerror(e));
  std::fflush(stderr);
  ::_exit(kExitChannelLost);
}

const pv_impl* load_in_child(const std::string& path, std::string& err) {
  void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = ::dlerror();
    err = std::string("dlopen failed: ") + (e ? e : "unknown error");
    return nullptr;
  }
  using fn = const pv_impl* (*)();
  auto f = reinterpret_cast<fn>(::dlsym(h, "posverify_impl"));
  if (!f) {
    err = "missing symbol posverify_impl (the library must export `const pv_impl *posverify_impl(void)` with C linkage)";
    return nullptr;
  }
  const pv_impl* impl = f();
  if (!impl) err = "posverify_impl() returned NULL";
  return impl;
}

/// Runs calls[first..] in this (child) process, writing results to kResultFd.
[[noreturn]] void child_serve(const std::string& path, const std::vector<call>& calls, std::size_t first,
                              std::uint64_t memory_limit) {
  arm_enomem_note();
  std::string err;
  const pv_impl* impl = is_process_spec(path) ? process_impl_in_child(err) : load_in_child(path, err);
  for (std::size_t i = first; i < calls.size(); ++i) {
    const call& c = calls[i];
    wire_header h{};
    h.magic = kMagic;
    h.index = static_cast<std::uint32_t>(i);
    g_note.index = h.index;
    const std::string mark = stderr_marker(i);
    (void)!::write(2, mark.data(), mark.size());
    errno = 0;
    std::vector<unsigned char> out;
    if (!impl) {
      h.st = static_cast<std::uint32_t>(status::error_code);
      h.rc = -1;
      set_detail(h, err);
    } else {
      std::string bad_guard, bad_input;
      int call_errno = 0;
      const std::size_t ob = c.out_bytes();
      guarded pos(c.pos.data(), c.pos.size() * sizeof(double), 0);
      if (c.kind == op::attention) {
        guarded q(c.a.data(), c.a.size(), 0), k(c.b.data(), c.b.size(), 0),
            v(c.c.data(), c.c.size(), 0), o(nullptr, ob, 0xFF);
        h.rc = impl->attention(c.t, q.data(), k.data(), v.data(), c.n_q, c.n_k, c.d, c.d_v,
                               o.data());
        call_errno = errno;
        for (auto* g : {&q, &k, &v, &o}) {
          const char* nm = g == &q ? "q" : g == &k ? "k" : g == &v ? "v" : "out";
          std::string s = g->check(nm);
          if (!s.empty()) bad_guard += (bad_guard.empty() ? "" : "; ") + s;
        }
        if (std::memcmp(q.data(), c.a.data(), c.a.size())) bad_input = "modified input q";
        else if (std::memcmp(k.data(), c.b.data(), c.b.size())) bad_input = "modified input k";
        else if (std::memcmp(v.data(), c.c.data(), c.c.size())) bad_input = "modified input v";
        out.assign(o.data(), o.data() + ob);
      } else if (c.kind == op::rope) {
        guarded x(c.a.data(), c.a.size(), 0), cfg(&c.cfg, sizeof c.cfg, 0);
        // a plugin of ABI 1 or 2 cannot know a version 3 configuration: unsupported, never called
        h.rc = impl->abi_version < 3 && pv_rope_config_version(&c.cfg) == 3
                   ? 1
                   : impl->rope(c.t, reinterpret_cast<const pv_rope_config*>(cfg.data()),
                                reinterpret_cast<const double*>(pos.data()), c.n, x.data());
        call_errno = errno;
        for (auto* g : {&x, &cfg, &pos}) {
          const char* nm = g == &x ? "x" : g == &cfg ? "cfg" : "pos";
          std::string s = g->check(nm);
          if (!s.empty()) bad_guard += (bad_guard.empty() ? "" : "; ") + s;
        }
        if (std::memcmp(cfg.data(), &c.cfg, sizeof c.cfg)) bad_input = "modified input cfg";
        else if (std::memcmp(pos.data(), c.pos.data(), c.pos.size() * sizeof(double)))
          bad_input = "modified input pos";
        out.assign(x.data(), x.data() + ob);
      } else {
        guarded o(nullptr, ob, 0xFF);
        h.rc = impl->sinusoid(c.t, c.d, c.base, reinterpret_cast<const double*>(pos.data()),
                              c.n, o.data());
        call_errno = errno;
        for (auto* g : {&o, &pos}) {
          std::string s = g->check(g == &o ? "out" : "pos");
          if (!s.empty()) bad_guard += (bad_guard.empty() ? "" : "; ") + s;
        }
        if (std::memcmp(pos.data(), c.pos.data(), c.pos.size() * sizeof(double)))
          bad_input = "modified input pos";
        out.assign(o.data(), o.data() + ob);
      }
      if (!bad_guard.empty()) {
        h.st = static_cast<std::uint32_t>(status::guard);
        set_detail(h, bad_guard);
      } else if (!bad_input.empty()) {
        h.st = static_cast<std::uint32_t>(status::input_written);
        set_detail(h, bad_input);
      } else if (h.rc == 0) {
        h.st = static_cast<std::uint32_t>(status::ok);
      } else if (h.rc == 1) {
        h.st = static_cast<std::uint32_t>(status::unsupported);
      } else {
        h.st = static_cast<std::uint32_t>(status::error_code);
        set_detail(h, "returned error code " + std::to_string(h.rc) +
                          (call_errno == ENOMEM && memory_limit
                               ? " (errno is ENOMEM: an allocation failed; the memory limit is " +
                                     size_text(memory_limit) + ", --memory-limit)"
                               : std::string()));
      }
    }
    if (h.st != static_cast<std::uint32_t>(status::ok)) out.clear();
    h.out_len = static_cast<std::uint32_t>(out.size());
    send(i, h, out);
  }
  ::_exit(0);
}


// --- in the parent ------------------------------------------------------------

std::string describe_exit(int wstatus) {
  if (WIFSIGNALED(wstatus)) {
    int s = WTERMSIG(wstatus);
    const char* nm = ::strsignal(s);
    return "killed by signal " + std::to_string(s) + " (" + (nm ? nm : "?") + ")";
  }
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == kExitChannelLost)
    return "the process could not send its result to posverify (exit status " + std::to_string(kExitChannelLost) +
           ": the library closed or replaced the result channel, fd " + std::to_string(kResultFd) + ")";
  if (WIFEXITED(wstatus)) return "the process exited with status " + std::to_string(WEXITSTATUS(wstatus));
  return "the process ended";
}

constexpr std::size_t kTailBytes = 4096;
constexpr int kTailLines = 20;

/// A forked child as the parent sees it. The destructor kills its process
/// group and reaps it, whatever happened.
struct child_proc {
  pid_t pid = -1;  ///< also its process group
  int res = -1, err = -1;
  bool res_eof = false, dead = false, enomem = false;
  int ws = 0;
  std::string tail;  ///< the last kTailBytes of its stderr
  bool tail_cut = false;

  child_proc() = default;
  child_proc(const child_proc&) = delete;
  child_proc& operator=(const child_proc&) = delete;
  ~child_proc() { finish(); }

  /// Waits for the child and records its peak resident set.
  void reap() {
    rusage ru{};
    if (::wait4(pid, &ws, 0, &ru) == pid) stats().last_peak_rss_kib = ru.ru_maxrss;
  }

  void kill_group() const {
    if (pid > 0 && ::kill(-pid, SIGKILL) != 0) ::kill(pid, SIGKILL);
  }

  /// Whether the child has died (then its group is killed and it is reaped;
  /// waitid with WNOWAIT keeps its pid, hence its group id, from being
  /// reused before the group is killed).
  bool check_dead() {
    if (dead || pid <= 0) return dead;
    siginfo_t si{};
    if (::waitid(P_PID, id_t(pid), &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid) {
      kill_group();
      reap();
      dead = true;
    }
    return dead;
  }

  void drain_err() {
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

  /// The last lines of its stderr (of call `index` when given), bounded and
  /// made visible ("" if none).
  std::string stderr_tail(std::size_t index = std::string::npos) {
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

  /// Reads n bytes of results before the deadline. dead: the child died
  /// (or closed the channel and died) first.
  enum class rd { ok, dead, timeout };
  rd read_exact(void* p, std::size_t n, std::chrono::steady_clock::time_point deadline) {
    char* c = static_cast<char*>(p);
    while (n) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0 && !dead) return rd::timeout;
      pollfd f[2];
      nfds_t k = 0;
      if (!res_eof) f[k++] = {res, POLLIN, 0};
      if (err >= 0) f[k++] = {err, POLLIN, 0};
      // a short slice: the child's death is watched by waitid, not by the
      // pipe (a grandchild may hold the pipe open)
      const int slice = dead ? 0 : int(std::min<long long>(left, 50));
      if (::poll(f, k, slice) < 0 && errno != EINTR) return dead ? rd::dead : rd::timeout;
      drain_err();
      if (!res_eof && (f[0].revents & (POLLIN | POLLHUP | POLLERR))) {
        ssize_t got = ::read(res, c, n);
        if (got > 0) {
          c += got;
          n -= std::size_t(got);
          continue;
        }
        if (got == 0) res_eof = true;
        else if (errno == EINTR) continue;
        else res_eof = true;
      }
      if (dead) return rd::dead;
      check_dead();  // when dead, the next pass reads what is left
    }
    return rd::ok;
  }

  void finish() {
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
  }
};

/// Forks a child (see child_setup). Returns true in the child, false in the
/// parent, where c holds the child. Throws std::runtime_error if pipe or
/// fork fails.
bool spawn(child_proc& c, const runner_options& o) {
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
    child_setup(rp[1], ep[1], o, base, parent);
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
  ::fcntl(c.err, F_SETFL, ::fcntl(c.err, F_GETFL) | O_NONBLOCK);
  return false;
}

/// The words after a fatal end of a child during call `index` (npos:
/// while loading): its stderr and, when an allocation failed just before,
/// the memory limit.
std::string aftermath(child_proc& c, const runner_options& o, std::size_t index = std::string::npos) {
  std::string s;
  if (c.enomem)
    s += "; an allocation had just failed (ENOMEM): the child hit the memory limit of " +
         size_text(o.memory_limit) + " (--memory-limit)";
  std::string t = c.stderr_tail(index);
  if (!t.empty()) s += "; " + t;
  return s;
}

/// Whether h is a well-formed record of call `index` with out_len bytes
/// expected on success.
bool well_formed(const wire_header& h, std::uint32_t index, std::size_t out_len) {
  if (h.magic != kMagic || h.index != index) return false;
  if (::strnlen(h.detail, sizeof h.detail) == sizeof h.detail) return false;
  switch (static_cast<status>(h.st)) {
    case status::ok: return h.out_len == out_len;
    case status::unsupported:
    case status::error_code:
    case status::guard:
    case status::input_written: return h.out_len == 0;
    default: return false;
  }
}

std::string garbled_detail(const wire_header& h, std::size_t index) {
  const std::string first(reinterpret_cast<const char*>(&h), 24);
  return "the result channel (fd " + std::to_string(kResultFd) + ") carried bytes that are not the result of call " +
         std::to_string(index) + " (did the library write to a descriptor it did not open?): they began \"" +
         text::visible(first) + "\"";
}

void check_finite(const call& c, result& r) {
  const std::size_t n = r.out.size() / elem_size(c.t);
  const std::int64_t cols = c.kind == op::attention ? c.d_v
                            : c.kind == op::rope    ? c.cfg.head_dim
                                                    : c.d;
  for (std::size_t i = 0; i < n; ++i) {
    double v;
    if (c.t == PV_F32) {
      float f;
      std::memcpy(&f, r.out.data() + i * 4, 4);
      v = f;
    } else if (c.t == PV_F64) {
      std::memcpy(&v, r.out.data() + i * 8, 8);
    } else {
      std::uint16_t b;
      std::memcpy(&b, r.out.data() + i * 2, 2);
      v = from_16bit(c.t, b);
    }
    if (!std::isfinite(v)) {
      r.st = status::non_finite;
      const std::size_t es = elem_size(c.t);
      bool untouched = c.kind != op::rope;
      for (std::size_t b = 0; b < es && untouched; ++b) untouched = r.out[i * es + b] == 0xFF;
      r.detail = std::string(std::isnan(v) ? "NaN" : "infinity") + " at output entry (" +
                 std::to_string(cols ? std::int64_t(i) / cols : 0) + ", " +
                 std::to_string(cols ? std::int64_t(i) % cols : 0) + ")" +
                 (untouched ? " (still the NaN bytes the buffer was filled with: never written)" : "");
      return;
    }
  }
}


}  // namespace

std::string size_text(std::uint64_t b) {
  if (b >= (1ull << 30) && b % (1ull << 30) == 0) return std::to_string(b >> 30) + " GiB";
  if (b >= (1ull << 20) && b % (1ull << 20) == 0) return std::to_string(b >> 20) + " MiB";
  if (b >= (1ull << 10) && b % (1ull << 10) == 0) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " bytes";
}

void track_child_group(pid_t pid) { register_child(pid); }
void untrack_child_group(pid_t pid) { unregister_child(pid); }

void kill_live_children() {
  for (auto& s : g_live) {
    const pid_t p = s;
    if (p > 0) ::kill(-p, SIGKILL);
  }
}

void install_signal_handlers() {
  static bool done = false;
  if (done) return;
  done = true;
  struct sigaction sa{};
  sa.sa_handler = on_terminating_signal;
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaction(s, &sa, nullptr);
  std::atexit(kill_live_children);
}

double from_16bit(pv_dtype t, std::uint16_t b) {
  if (t == PV_F16) {
    _Float16 h;
    std::memcpy(&h, &b, 2);
    return double(h);
  }
  const std::uint32_t w = std::uint32_t(b) << 16;  // bfloat16: the high half of a float
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

std::uint16_t to_16bit(pv_dtype t, float x) {
  std::uint16_t b;
  if (t == PV_F16) {
    const _Float16 h = static_cast<_Float16>(x);  // correctly rounded (GCC's __truncsfhf2)
    std::memcpy(&b, &h, 2);
    return b;
  }
  std::uint32_t w;
  std::memcpy(&w, &x, 4);
  if ((w & 0x7F800000u) == 0x7F800000u) return std::uint16_t((w >> 16) | ((w & 0xFFFFu) ? 0x40u : 0u));  // inf, NaN
  w += 0x7FFFu + ((w >> 16) & 1u);  // round to nearest, ties to even
  return std::uint16_t(w >> 16);
}

std::size_t call::out_bytes() const {
  const std::size_t es = elem_size(t);
  switch (kind) {
    case op::attention: return static_cast<std::size_t>(n_q * d_v) * es;
    case op::rope: return a.size();
    case op::sinusoid: return static_cast<std::size_t>(n * d) * es;
  }
  return 0;
}

double call::work() const {
  switch (kind) {
    case op::attention: return double(n_q) * double(n_k) * double(d + d_v);
    case op::rope: return double(a.size() / std::max<std::size_t>(1, elem_size(t)));
    case op::sinusoid: return double(n) * double(d);
  }
  return 0;
}

long call_timeout_ms(const call& c, const runner_options& o) {
  return o.timeout_ms + long(c.work() * kNsPerMadd * 1e-6);
}

impl_info probe_library(const std::string& given, int timeout_ms) {
  runner_options o;
  o.timeout_ms = timeout_ms;
  return probe_library(given, o);
}

impl_info probe_library(const std::string& given, const runner_options& o) {
  if (is_process_spec(given)) return probe_process(given, o);
  const std::string shown = text::visible(given);
  struct stat st{};
  if (::stat(given.c_str(), &st) != 0)
    throw load_error("cannot load '" + shown + "': " + std::strerror(errno));
  // dlopen searches the library path for a bare name: always pass a full path
  char* full = ::realpath(given.c_str(), nullptr);
  const std::string path = full ? std::string(full) : given;
  std::free(full);
  const std::string where = "cannot load '" + text::visible(path) + "': ";
  child_proc c;
  if (spawn(c, o)) {
    std::string err;
    const pv_impl* impl = load_in_child(path, err);
    std::string msg;
    if (!impl) {
      msg = "E" + err;
    } else {
      std::string name = impl->name ? std::string(impl->name).substr(0, 200) : "";
      msg.push_back('I');
      msg += std::to_string(impl->abi_version);
      msg += ' ';
      msg += impl->attention ? '1' : '0';
      msg += impl->rope ? '1' : '0';
      msg += impl->sinusoid ? '1' : '0';
      msg += ' ';
      // version 2 only: a version-1 pv_impl ends before `accuracy`
      const char* acc = impl->abi_version >= 2 && impl->accuracy ? impl->accuracy : "";
      // the accuracy ends at the next space: one inside it is sent as "\x20",
      // so "bfloat16 junk" stays one (unknown) class, never "bfloat16"
      for (char ch : std::string(acc).substr(0, 40)) msg += ch == ' ' ? std::string("\\x20") : std::string(1, ch);
      msg += ' ';
      msg += name;
    }
    const std::uint32_t head[2] = {kMagic, static_cast<std::uint32_t>(msg.size())};
    if (!write_all(kResultFd, head, sizeof head) || !write_all(kResultFd, msg.data(), msg.size()))
      ::_exit(kExitChannelLost);
    ::_exit(0);
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(o.timeout_ms);
  std::uint32_t head[2] = {0, 0};
  std::string msg;
  auto r = c.read_exact(head, sizeof head, deadline);
  const bool garbled = r == child_proc::rd::ok && (head[0] != kMagic || head[1] > 100000);
  if (r == child_proc::rd::ok && !garbled) {
    msg.resize(head[1]);
    r = c.read_exact(msg.data(), msg.size(), deadline);
  }
  c.finish();
  if (garbled)
    throw load_error(where + "its answer is garbled (the library wrote to posverify's channel, fd " +
                     std::to_string(kResultFd) + ")" + aftermath(c, o));
  if (r == child_proc::rd::timeout)
    throw load_error(where + "loading it did not finish within " + std::to_string(o.timeout_ms) + " ms" +
                     aftermath(c, o));
  if (r == child_proc::rd::dead)
    throw load_error(where + describe_exit(c.ws) + " while loading it or calling posverify_impl()" +
                     aftermath(c, o));
  if (msg.empty() || msg[0] != 'I')
    throw load_error(where + (msg.size() > 1 ? text::visible(msg.substr(1)) : std::string("no answer")));
  impl_info info;
  info.path = path;
  info.given = given;
  const std::size_t sp = msg.find(' ');
  if (sp == std::string::npos || msg.size() < sp + 5)
    throw load_error(where + "its answer is garbled: \"" + text::visible(msg) + "\"");
  info.abi_version = static_cast<std::uint32_t>(std::strtoul(msg.substr(1, sp - 1).c_str(), nullptr, 10));
  info.has_attention = msg[sp + 1] == '1';
  info.has_rope = msg[sp + 2] == '1';
  info.has_sinusoid = msg[sp + 3] == '1';
  const std::size_t sp2 = msg.find(' ', sp + 5);
  info.accuracy = msg.substr(sp + 5, sp2 - (sp + 5));
  // the name reaches the terminal, Markdown and JSON: one visible line
  info.name = sp2 != std::string::npos ? text::visible(msg.substr(sp2 + 1)) : "";
  if (info.abi_version < 1 || info.abi_version > PV_ABI_VERSION)
    throw load_error("cannot use '" + text::visible(path) + "': it declares ABI version " +
                     std::to_string(info.abi_version) + ", posverify speaks versions 1 to " +
                     std::to_string(PV_ABI_VERSION) + " (rebuild it against posverify/impl.h)");
  if (info.name.empty()) info.name = text::visible(path.substr(path.find_last_of('/') + 1));
  for (const char* a : {"", "float32", "float16", "bfloat16", "float16-accumulation"})
    if (info.accuracy == a) return info;
  throw load_error("cannot use '" + text::visible(path) + "': it declares accuracy class '" + text::visible(info.accuracy) +
                   "' (float32, float16, bfloat16 or float16-accumulation)");
}

std::vector<result> run_batch(const impl_info& lib, const std::vector<call>& calls,
                              const runner_options& o) {
  std::vector<result> res(calls.size());
  std::size_t next = 0;
  while (next < calls.size()) {
    child_proc c;
    ensure_server(lib, o);
    if (spawn(c, o)) child_serve(lib.path, calls, next, o.memory_limit);
    bool fatal = false;
    auto since = std::chrono::steady_clock::now();
    while (next < calls.size()) {
      const long limit_ms = call_timeout_ms(calls[next], o);
      auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(limit_ms);
      wire_header h{};
      auto r = c.read_exact(&h, sizeof h, deadline);
      while (r == child_proc::rd::ok && h.magic == kMagic && h.st == kNoteEnomem) {
        c.enomem = true;  // the child is about to die of a failed allocation
        r = c.read_exact(&h, sizeof h, deadline);
      }
      const bool ok_frame = r == child_proc::rd::ok && well_formed(h, std::uint32_t(next), calls[next].out_bytes());
      std::vector<unsigned char> out;
      if (ok_frame) {
        out.resize(h.out_len);
        r = c.read_exact(out.data(), out.size(), deadline);
      }
      result& R = res[next];
      ++stats().calls;
      R.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
      since = std::chrono::steady_clock::now();
      if (r == child_proc::rd::ok && !ok_frame) {
        c.finish();
        R.st = status::garbled;
        R.detail = garbled_detail(h, next) + aftermath(c, o, next);
        fatal = true;
        break;
      }
      if (r == child_proc::rd::timeout) {
        c.finish();
        R.st = status::hung;
        R.detail = "did not return within " + std::to_string(limit_ms) + " ms (killed)" + aftermath(c, o, next);
        fatal = true;
        break;
      }
      if (r == child_proc::rd::dead) {
        R.st = status::crashed;
        R.detail = describe_exit(c.ws) + " during the call" + aftermath(c, o, next);
        fatal = true;
        break;
      }
      R.st = static_cast<status>(h.st);
      R.rc = h.rc;
      R.detail = std::string(h.detail, strnlen(h.detail, sizeof h.detail));
      R.out = std::move(out);
      // the stderr of this call: in the finding when the call failed
      if (R.st != status::ok && R.st != status::unsupported) {
        std::string t = c.stderr_tail(next);
        if (!t.empty()) R.detail += "; " + t;
      }
      if (auto p = c.tail.find(stderr_marker(next + 1)); p != std::string::npos) c.tail.erase(0, p);
      if (R.st == status::ok) check_finite(calls[next], R);
      ++next;
    }
    c.finish();
    if (fatal) {
      server_after_fatal(lib);
      ++next;
      if (o.stop_at_fatal) break;
    }
  }
  return res;
}

}  // namespace pv::sandbox
