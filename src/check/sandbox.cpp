#include "check/sandbox.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pv::check {

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

struct wire_header {
  std::uint32_t index;
  std::int32_t rc;
  std::uint32_t st;
  std::uint32_t out_len;
  char detail[400];
};

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

enum class rd { ok, eof, timeout };

/// Reads exactly n bytes, waiting at most until the deadline.
rd read_all(int fd, void* p, std::size_t n, std::chrono::steady_clock::time_point deadline) {
  char* c = static_cast<char*>(p);
  while (n) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return rd::timeout;
    pollfd pf{fd, POLLIN, 0};
    int r = ::poll(&pf, 1, static_cast<int>(std::min<long long>(left, 1 << 30)));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return rd::timeout;
    ssize_t got = ::read(fd, c, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return rd::eof;
    c += got;
    n -= static_cast<std::size_t>(got);
  }
  return rd::ok;
}

void set_detail(wire_header& h, const std::string& s) {
  std::snprintf(h.detail, sizeof h.detail, "%s", s.c_str());
}

/// In a child: no core files from a crashing library, stdout to /dev/null
/// (a library that prints must not garble posverify's output).
void quiet_child() {
  rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  int devnull = ::open("/dev/null", O_WRONLY);
  if (devnull >= 0) ::dup2(devnull, 1);
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

/// Runs calls[first..] in this (child) process, writing results to fd.
[[noreturn]] void child_serve(const std::string& path, const std::vector<call>& calls,
                              std::size_t first, int fd) {
  quiet_child();
  std::string err;
  const pv_impl* impl = load_in_child(path, err);
  for (std::size_t i = first; i < calls.size(); ++i) {
    const call& c = calls[i];
    wire_header h{};
    h.index = static_cast<std::uint32_t>(i);
    std::vector<unsigned char> out;
    if (!impl) {
      h.st = static_cast<std::uint32_t>(status::error_code);
      h.rc = -1;
      set_detail(h, err);
    } else {
      std::string bad_guard, bad_input;
      const std::size_t ob = c.out_bytes();
      guarded pos(c.pos.data(), c.pos.size() * sizeof(double), 0);
      if (c.kind == op::attention) {
        guarded q(c.a.data(), c.a.size(), 0), k(c.b.data(), c.b.size(), 0),
            v(c.c.data(), c.c.size(), 0), o(nullptr, ob, 0xFF);
        h.rc = impl->attention(c.t, q.data(), k.data(), v.data(), c.n_q, c.n_k, c.d, c.d_v,
                               o.data());
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
        h.rc = impl->rope(c.t, reinterpret_cast<const pv_rope_config*>(cfg.data()),
                          reinterpret_cast<const double*>(pos.data()), c.n, x.data());
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
        set_detail(h, "returned error code " + std::to_string(h.rc));
      }
    }
    if (h.st != static_cast<std::uint32_t>(status::ok)) out.clear();
    h.out_len = static_cast<std::uint32_t>(out.size());
    if (!write_all(fd, &h, sizeof h) || !write_all(fd, out.data(), out.size())) ::_exit(3);
  }
  ::_exit(0);
}

std::string describe_exit(int wstatus) {
  if (WIFSIGNALED(wstatus)) {
    int s = WTERMSIG(wstatus);
    const char* nm = ::strsignal(s);
    return "killed by signal " + std::to_string(s) + " (" + (nm ? nm : "?") + ")";
  }
  if (WIFEXITED(wstatus)) return "the process exited with status " + std::to_string(WEXITSTATUS(wstatus));
  return "the process ended";
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

/// Forks a child joined to the parent by a pipe. In the child (returns 0) fd
/// is the pipe's write end; in the parent (returns the child's pid, counted
/// in stats()) fd is its read end. Throws std::runtime_error if pipe or fork
/// fails.
pid_t fork_with_pipe(int& fd) {
  int p[2];
  if (::pipe(p) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(p[0]);
    fd = p[1];
  } else {
    ::close(p[1]);
    ++stats().children;
    fd = p[0];
  }
  return pid;
}

}  // namespace

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

impl_info probe_library(const std::string& given, int timeout_ms) {
  struct stat st{};
  if (::stat(given.c_str(), &st) != 0)
    throw load_error("cannot load '" + given + "': " + std::strerror(errno));
  // dlopen searches the library path for a bare name: always pass a full path
  char* full = ::realpath(given.c_str(), nullptr);
  const std::string path = full ? std::string(full) : given;
  std::free(full);
  int fd = -1;
  pid_t pid = fork_with_pipe(fd);
  if (pid == 0) {
    quiet_child();
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
      msg += std::string(acc).substr(0, 40);
      msg += ' ';
      msg += name;
    }
    std::uint32_t len = static_cast<std::uint32_t>(msg.size());
    write_all(fd, &len, 4);
    write_all(fd, msg.data(), msg.size());
    ::_exit(0);
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  std::uint32_t len = 0;
  std::string msg;
  rd r = read_all(fd, &len, 4, deadline);
  if (r == rd::ok && len < 100000) {
    msg.resize(len);
    r = read_all(fd, msg.data(), len, deadline);
  }
  if (r == rd::timeout) ::kill(pid, SIGKILL);
  ::close(fd);
  int ws = 0;
  ::waitpid(pid, &ws, 0);
  if (r == rd::timeout)
    throw load_error("cannot load '" + path + "': loading it did not finish within " +
                     std::to_string(timeout_ms) + " ms");
  if (r == rd::eof)
    throw load_error("cannot load '" + path + "': " + describe_exit(ws) +
                     " while loading it or calling posverify_impl()");
  if (msg.empty() || msg[0] == 'E')
    throw load_error("cannot load '" + path + "': " + (msg.empty() ? "no answer" : msg.substr(1)));
  impl_info info;
  info.path = path;
  info.given = given;
  std::size_t sp = msg.find(' ');
  info.abi_version = static_cast<std::uint32_t>(std::strtoul(msg.substr(1, sp - 1).c_str(), nullptr, 10));
  info.has_attention = msg[sp + 1] == '1';
  info.has_rope = msg[sp + 2] == '1';
  info.has_sinusoid = msg[sp + 3] == '1';
  const std::size_t sp2 = msg.find(' ', sp + 5);
  info.accuracy = msg.substr(sp + 5, sp2 - (sp + 5));
  info.name = sp2 != std::string::npos ? msg.substr(sp2 + 1) : "";
  if (info.abi_version != 1 && info.abi_version != PV_ABI_VERSION)
    throw load_error("cannot use '" + path + "': it declares ABI version " +
                     std::to_string(info.abi_version) + ", posverify speaks versions 1 and " +
                     std::to_string(PV_ABI_VERSION) + " (rebuild it against posverify/impl.h)");
  if (info.name.empty()) info.name = path.substr(path.find_last_of('/') + 1);
  for (const char* a : {"", "float32", "float16", "bfloat16", "float16-accumulation"})
    if (info.accuracy == a) return info;
  throw load_error("cannot use '" + path + "': it declares accuracy class '" + info.accuracy +
                   "' (float32, float16, bfloat16 or float16-accumulation)");
}

std::vector<result> run_batch(const impl_info& lib, const std::vector<call>& calls,
                              const runner_options& o) {
  std::vector<result> res(calls.size());
  std::size_t next = 0;
  while (next < calls.size()) {
    int fd = -1;
    pid_t pid = fork_with_pipe(fd);
    if (pid == 0) child_serve(lib.path, calls, next, fd);
    bool fatal = false;
    while (next < calls.size()) {
      auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(o.timeout_ms);
      wire_header h{};
      rd r = read_all(fd, &h, sizeof h, deadline);
      std::vector<unsigned char> out;
      if (r == rd::ok && h.index == next && h.out_len == calls[next].out_bytes()) {
        out.resize(h.out_len);
        r = read_all(fd, out.data(), out.size(), deadline);
      } else if (r == rd::ok && h.out_len != 0) {
        r = rd::eof;  // protocol broken: treat as a crash
      }
      result& R = res[next];
      ++stats().calls;
      if (r == rd::timeout) {
        ::kill(pid, SIGKILL);
        R.st = status::hung;
        R.detail = "did not return within " + std::to_string(o.timeout_ms) + " ms (killed)";
        fatal = true;
        break;
      }
      if (r == rd::eof) {
        int ws = 0;
        ::waitpid(pid, &ws, 0);
        pid = -1;
        R.st = status::crashed;
        R.detail = describe_exit(ws) + " during the call";
        fatal = true;
        break;
      }
      R.st = static_cast<status>(h.st);
      R.rc = h.rc;
      R.detail = std::string(h.detail, strnlen(h.detail, sizeof h.detail));
      R.out = std::move(out);
      if (R.st == status::ok) check_finite(calls[next], R);
      ++next;
    }
    ::close(fd);
    if (pid > 0) {
      int ws = 0;
      ::waitpid(pid, &ws, 0);
    }
    if (fatal) {
      ++next;
      if (o.stop_at_fatal) break;
    }
  }
  return res;
}

}  // namespace pv::check
