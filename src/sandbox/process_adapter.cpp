#include "sandbox/process_adapter.h"

#include "sandbox/half_formats.h"
#include "sandbox/operations.h"

#include "core/input.h"
#include "core/install_dirs.h"
#include "core/text.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef POSVERIFY_PYTHON_DIR
#define POSVERIFY_PYTHON_DIR ""
#endif

namespace pv::sandbox {
namespace {

/// The exit status of a child whose server ended, or answered garbage, during a call.
constexpr int kExitServerLost = 121;

/// Request types: HELLO, then operation k of operations.h is type k + kFirstOperation.
enum : std::uint8_t { kHello = 1, kFirstOperation = 2 };
enum : std::uint8_t { kOk = 0, kUnsupported = 1, kError = 2 };

/// The running server (one at a time: --mutation and --panel switch between them).
struct server_state {
  std::string spec;
  pid_t pid = -1;
  int to = -1, from = -1, err = -1;  ///< its stdin (write end), stdout, stderr (read ends)
  bool dirty = false;                ///< a batch ended badly: restart before the next
  /// A restart of this spec failed: it is not tried again in this run (a
  /// server that hangs on every restart would cost the start limit per batch).
  std::string given_up;
  hello_answer hello;  ///< its HELLO: the protocol version, what it provides and declares
  std::string failure;  ///< why it could not be (re)started ("" when it runs)
} g_server;
/// How many times a server was started in this process (server_generation).
std::uint64_t g_generation = 0;

std::string env_or(const char* var, const std::string& fallback) {
  const char* v = std::getenv(var);
  return v && *v ? std::string(v) : fallback;
}

// --- bytes on the wire --------------------------------------------------------

struct writer {
  std::string b;
  template <class T>
  void put(T v) { b.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void bytes(const void* p, std::size_t n) { b.append(static_cast<const char*>(p), n); }
  std::string frame() const {
    const std::uint32_t n = std::uint32_t(b.size());
    return std::string(reinterpret_cast<const char*>(&n), 4) + b;
  }
};

/// Copies what the server's stderr pipe holds to `sink` (a descriptor, or a
/// string when sink_fd < 0) without blocking; false at its end.
bool drain(int err, int sink_fd, std::string* sink) {
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(err, buf, sizeof buf);
    if (n > 0) {
      if (sink_fd >= 0) (void)!::write(sink_fd, buf, std::size_t(n));
      if (sink) {  // its last 16 KiB
        sink->append(buf, std::size_t(n));
        if (sink->size() > 16384) sink->erase(0, sink->size() - 16384);
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n != 0;
  }
}

/// Reads n bytes of `from`, copying the server's stderr as it comes;
/// deadline_ms < 0: no deadline. Returns "" or what went wrong.
std::string read_answer(int from, int err, char* p, std::size_t n, int sink_fd, std::string* sink,
                        long deadline_ms) {
  const auto t0 = std::chrono::steady_clock::now();
  bool err_open = err >= 0;
  while (n) {
    long wait = -1;
    if (deadline_ms >= 0) {
      wait = deadline_ms - long(std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::steady_clock::now() - t0).count());
      if (wait <= 0) return "no answer within " + std::to_string(deadline_ms) + " ms";
    }
    pollfd f[2] = {{from, POLLIN, 0}, {err_open ? err : -1, POLLIN, 0}};
    if (::poll(f, 2, int(wait)) < 0 && errno != EINTR) return std::string("poll: ") + std::strerror(errno);
    if (err_open && (f[1].revents & (POLLIN | POLLHUP | POLLERR))) err_open = drain(err, sink_fd, sink);
    if (f[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t got = ::read(from, p, n);
      if (got > 0) {
        p += got;
        n -= std::size_t(got);
      } else if (got == 0) {
        return "the server closed its stdout (it exited or crashed)";
      } else if (errno != EINTR) {
        return std::string("read: ") + std::strerror(errno);
      }
    }
  }
  return "";
}

/// One answer: status, inputs-written mask, text, payload.
struct answer {
  std::uint8_t status = kError, written = 0;
  std::string text, payload;
};

/// Reads one answer frame; "" or what went wrong.
std::string read_frame(int from, int err, answer& a, int sink_fd, std::string* sink, long deadline_ms,
                       std::size_t max_len) {
  // one deadline for the whole frame, however it is cut into writes
  const auto t0 = std::chrono::steady_clock::now();
  auto left = [&]() -> long {
    if (deadline_ms < 0) return -1;
    const long spent = long(std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::steady_clock::now() - t0).count());
    return std::max(0L, deadline_ms - spent);
  };
  auto late = [&](std::string e) {
    return e.rfind("no answer within", 0) == 0 ? "no answer within " + std::to_string(deadline_ms) + " ms" : e;
  };
  std::uint32_t len = 0;
  std::string e = read_answer(from, err, reinterpret_cast<char*>(&len), 4, sink_fd, sink, left());
  if (!e.empty()) return late(e);
  if (len < 6 || len > max_len)
    return "its answer announces " + std::to_string(len) + " bytes (expected 6 to " + std::to_string(max_len) + ")";
  std::string body(len, '\0');
  e = read_answer(from, err, body.data(), len, sink_fd, sink, left());
  if (!e.empty()) return late(e);
  a.status = std::uint8_t(body[0]);
  a.written = std::uint8_t(body[1]);
  std::uint32_t tl;
  std::memcpy(&tl, body.data() + 2, 4);
  if (tl > len - 6) return "its answer's text length " + std::to_string(tl) + " overruns the frame";
  a.text = body.substr(6, tl);
  a.payload = body.substr(6 + tl);
  if (a.status > kError) return "unknown status " + std::to_string(a.status);
  return "";
}

// --- the server, in the parent ------------------------------------------------

void stop_server() {
  server_state& s = g_server;
  if (s.pid > 0) {
    ::kill(-s.pid, SIGKILL);
    ::kill(s.pid, SIGKILL);
    ::waitpid(s.pid, nullptr, 0);
    untrack_child_group(s.pid);
  }
  for (int* fd : {&s.to, &s.from, &s.err})
    if (*fd >= 0) {
      ::close(*fd);
      *fd = -1;
    }
  s.pid = -1;
}

extern "C" void stop_server_at_exit() { stop_server(); }

std::vector<std::string> server_argv(const std::string& spec) {
  if (spec.rfind("cmd:", 0) == 0) return {"/bin/sh", "-c", "exec " + spec.substr(4)};
  const process_options& po = process_settings();
  return {po.python, "-u", "-m", "posverify.server", spec.substr(7)};
}

/// Starts the server and says HELLO; "" or the cause of failure.
std::string start_server(const std::string& spec, const runner_options& o) {
  stop_server();
  ++g_generation;
  server_state& s = g_server;
  s.spec = spec;
  s.dirty = false;
  const std::vector<std::string> argv = server_argv(spec);
  const process_options& po = process_settings();
  std::string pypath = po.python_path;
  // the package posverify/: $POSVERIFY_PYTHON_DIR, else the installed one beside the
  // binary, else the source tree's (core/install_dirs.h)
  const std::string extra = env_or(
      "POSVERIFY_PYTHON_DIR", installed_or(kInstalledPythonDir, "posverify/server.py", POSVERIFY_PYTHON_DIR));
  for (const std::string& p : {env_or("PYTHONPATH", ""), extra})
    if (!p.empty()) pypath += (pypath.empty() ? "" : ":") + p;
  const std::string table = operations_json().dump();  // what the server decodes requests from
  int in[2], out[2], er[2];
  if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(er, O_CLOEXEC))
    return std::string("pipe: ") + std::strerror(errno);
  const pid_t parent = ::getpid();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return std::string("fork: ") + std::strerror(errno);
  if (pid == 0) {
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) ::signal(sig, SIG_DFL);
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    if (o.memory_limit) {  // a new program: its data segment starts near 0
      rlimit data{};
      ::getrlimit(RLIMIT_DATA, &data);
      if (data.rlim_max == RLIM_INFINITY || o.memory_limit < data.rlim_max) data.rlim_cur = o.memory_limit;
      ::setrlimit(RLIMIT_DATA, &data);
    }
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(er[1], 2);
    ::close_range(3, ~0U, 0);
    if (!pypath.empty()) ::setenv("PYTHONPATH", pypath.c_str(), 1);
    if (!po.device.empty()) ::setenv("POSVERIFY_DEVICE", po.device.c_str(), 1);
    ::setenv("POSVERIFY_OPERATIONS", table.c_str(), 1);
    ::setenv("PYTHONUNBUFFERED", "1", 1);
    std::vector<char*> av;
    for (const auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
    av.push_back(nullptr);
    ::execvp(av[0], av.data());
    std::fprintf(stderr, "cannot run %s: %s\n", av[0], std::strerror(errno));
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  track_child_group(pid);
  static bool at_exit = false;
  if (!at_exit) std::atexit(stop_server_at_exit), at_exit = true;
  ::close(in[0]);
  ::close(out[1]);
  ::close(er[1]);
  s.pid = pid;
  s.to = in[1];
  s.from = out[0];
  s.err = er[0];
  ::fcntl(s.err, F_SETFL, ::fcntl(s.err, F_GETFL) | O_NONBLOCK);
  ::signal(SIGPIPE, SIG_IGN);  // a dead server: EPIPE, not death
  writer w;
  w.put<std::uint8_t>(kHello);
  w.put<std::uint32_t>(kProtocolVersion);
  const std::string f = w.frame();
  std::string said;
  answer a;
  std::string e = write_all(s.to, f.data(), f.size()) ? "" : std::string("write: ") + std::strerror(errno);
  if (e.empty()) e = read_frame(s.from, s.err, a, -1, &said, po.start_ms, 1 << 20);
  if (e.empty() && a.status != kOk) e = "it refused HELLO: " + a.text;
  if (e.empty()) e = read_hello(a.payload, s.hello);
  if (!e.empty()) {
    drain(s.err, -1, &said);
    stop_server();
    while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
    if (said.size() > 3000) said = "..." + said.substr(said.size() - 3000);
    if (!said.empty()) e += "; its stderr: \"" + text::visible(said) + "\"";
    s.failure = e;
    return e;
  }
  s.failure.clear();
  return "";
}

// --- the calls, in a sandboxed child -------------------------------------------

int g_to = -1, g_from = -1, g_err = -1;
std::string g_said;  ///< the server's recent stderr (for the line that says why it died)
/// The call whose request goes out as soon as the current call's answer is
/// read (server_next), and the call whose request the server already holds.
const call* g_next = nullptr;
const call* g_sent_ahead = nullptr;

/// After an answer is read in full. The server wrote what it said during that
/// call to its stderr before the answer, so copying its stderr now gives the
/// call all of it; then the next call's request goes out (g_next), and the
/// server works on it while this child checks and reports the call just
/// answered. The server then waits on its stdin, so nothing it says from here
/// on belongs to the call just answered (the sandbox's per-call stderr stays
/// exact). Its pipe is empty (it read the last request whole before answering
/// it), so the write cannot wait on an answer: no deadlock, whatever the size.
void send_ahead() {
  drain(g_err, 2, &g_said);
  const call* n = g_next;
  g_next = nullptr;
  if (!n) return;
  const operation& o = n->row();
  const std::uint32_t version = g_server.hello.version;
  if (!travels(o, *n, version) || o.protocol > version) return;  // server_invoke declines it unsent
  invocation a;
  a.t = n->t;
  a.c = n;
  for (std::size_t b = 0; b < o.buffers.size(); ++b)  // the bytes its guarded copies will hold
    a.buf.push_back(o.buffers[b].use == role::out ? nullptr
                                                  : const_cast<unsigned char*>(n->input(b).data()));
  writer w;
  w.b = request_body(o, a, version);
  const std::string f = w.frame();
  // a failed write (a server that ended) is found again when the call is made
  if (write_all(g_to, f.data(), f.size())) g_sent_ahead = n;
}

/// Sends one request (unless send_ahead sent it) and waits for its answer; a
/// server that ends or answers garbage ends this child (a crash finding, with
/// the server's stderr).
answer forward(const writer& w, std::size_t out_bytes, bool sent) {
  if (g_to < 0) {  // said on the child's stderr, so that the call's finding quotes it
    answer a;
    a.status = kError;
    a.text = "posverify: the server is not running: " + g_server.failure + "\n";
    (void)!::write(2, a.text.data(), a.text.size());
    return a;
  }
  std::string e;
  if (!sent) {
    const std::string f = w.frame();
    if (!write_all(g_to, f.data(), f.size())) e = std::string("cannot send the call: ") + std::strerror(errno);
  }
  answer a;
  if (e.empty()) e = read_frame(g_from, g_err, a, 2, &g_said, -1, out_bytes + (std::size_t(1) << 24));
  if (e.empty() && a.status == kOk && a.payload.size() != out_bytes)
    e = "it answered " + std::to_string(a.payload.size()) + " bytes of output, " + std::to_string(out_bytes) +
        " expected";
  if (!e.empty()) {
    if (g_err >= 0) {  // what the server said before it went (a fault handler's traceback)
      ::fcntl(g_err, F_SETFL, ::fcntl(g_err, F_GETFL) & ~O_NONBLOCK);
      pollfd p{g_err, POLLIN, 0};
      while (::poll(&p, 1, 200) > 0 && drain(g_err, 2, &g_said)) {}
    }
    // the cause a runtime printed as it died (Python's fault handler), so that
    // it survives the cut of a long stderr
    std::string cause;
    if (const auto at = g_said.rfind("Fatal Python error: "); at != std::string::npos)
      cause = " (" + g_said.substr(at, g_said.find('\n', at) - at) + ")";
    std::fprintf(stderr, "\nposverify: the server %s: %s%s\n", g_server.spec.c_str(), e.c_str(), cause.c_str());
    std::fflush(stderr);
    ::_exit(kExitServerLost);
  }
  send_ahead();
  if (!a.text.empty()) (void)!::write(2, a.text.data(), a.text.size());
  return a;
}

/// 0, 1 (unsupported) or 2 (the implementation raised: its message is on stderr).
int status_rc(const answer& a) { return a.status == kOk ? 0 : a.status == kUnsupported ? 1 : 2; }

/// Appends `count` values of field f, read from `from` (a C value of the
/// field's type: int64_t, int32_t or double), in f's wire type.
void put_field(writer& w, const field& f, const unsigned char* from) {
  for (int j = 0; j < f.count; ++j)
    switch (f.type) {
      case wire::i64: { std::int64_t v; std::memcpy(&v, from + 8 * j, 8); w.put<std::int64_t>(v); break; }
      case wire::f64: { double v; std::memcpy(&v, from + 8 * j, 8); w.put<double>(v); break; }
      case wire::i32: { std::int32_t v; std::memcpy(&v, from + 4 * j, 4); w.put<std::int32_t>(v); break; }
      case wire::u8: { std::int32_t v; std::memcpy(&v, from + 4 * j, 4); w.put<std::uint8_t>(std::uint8_t(v)); break; }
    }
}



}  // namespace

std::string read_hello(const std::string& p, hello_answer& h) {
  h = hello_answer{};
  std::uint32_t nl = 0, al = 0;
  if (p.size() < 4) return "its HELLO answer is malformed (" + std::to_string(p.size()) + " bytes)";
  std::memcpy(&h.version, p.data(), 4);
  if (h.version < kOldestProtocolVersion || h.version > kProtocolVersion)
    return "it speaks protocol version " + std::to_string(h.version) + ", posverify speaks versions " +
           std::to_string(kOldestProtocolVersion) + " to " + std::to_string(kProtocolVersion) + " (docs/protocol.md)";
  if (p.size() >= 9) {
    h.provides = std::uint8_t(p[4]);
    std::memcpy(&nl, p.data() + 5, 4);
  }
  // version 2 adds u32 rope_caps after the accuracy string
  const std::size_t caps = h.version >= 2 ? 4 : 0;
  if (p.size() < 9 || p.size() - 9 < std::size_t(nl) + 4) return "its HELLO answer is malformed";
  h.name = p.substr(9, nl);
  std::memcpy(&al, p.data() + 9 + nl, 4);
  if (p.size() - 13 - nl < std::size_t(al) + caps)
    return "its HELLO answer (protocol version " + std::to_string(h.version) + ") is malformed: " +
           std::to_string(p.size()) + " bytes" + (caps ? ", too few for the accuracy and rope_caps" : "");
  h.accuracy = p.substr(13 + nl, al);
  if (caps) {
    std::memcpy(&h.rope_caps, p.data() + 13 + nl + al, 4);
    // version 3 carries the members of ABI version 7: a server of version 2 cannot take them
    h.rope_caps &= h.version >= 3 ? kEveryRopeDeclaration : kEveryRopeDeclaration & ~kRopeVersion7Capabilities;
  } else {
    h.rope_caps = PV_ROPE_PARTIAL;  // version 1 carries no other configuration of ABI version 3
  }
  // version 4 adds u32 attend_caps and u32 attend_empty_rows
  if (h.version >= 4) {
    const std::size_t at = 13 + nl + al + caps;
    if (p.size() < at + 8)
      return "its HELLO answer (protocol version " + std::to_string(h.version) + ") is malformed: " +
             std::to_string(p.size()) + " bytes, too few for attend_caps and attend_empty_rows";
    std::memcpy(&h.attend_caps, p.data() + at, 4);
    std::memcpy(&h.attend_empty_rows, p.data() + at + 4, 4);
    h.attend_caps &= h.version >= 6   ? kEveryAttendCapability
                     : h.version >= 5 ? kProtocol5AttendCapabilities
                                      : kProtocol4AttendCapabilities;
    if (h.attend_empty_rows > PV_EMPTY_MEAN)
      return "its HELLO answer declares attend_empty_rows " + std::to_string(h.attend_empty_rows) +
             " (0 undeclared, 1 zeros, 2 NaN, 3 the mean of V: docs/protocol.md)";
  }
  return "";
}

process_options& process_settings() {
  static process_options o{env_or("POSVERIFY_PYTHON", "/usr/bin/python3"), "", "", ""};
  return o;
}

bool is_process_spec(const std::string& spec) {
  return spec.rfind("python:", 0) == 0 || spec.rfind("cmd:", 0) == 0;
}

void set_process_option(const std::string& flag, const std::string& v, std::string& impl) {
  process_options& po = process_settings();
  if (v.empty()) throw pv::usage_error(flag + " needs a non-empty value");
  if (flag == "--impl-cmd") impl = "cmd:" + v;
  else if (flag == "--python") po.python = v;
  else if (flag == "--python-path") po.python_path = v;
  else if (flag == "--device") po.device = v;
  else if (flag == "--start-timeout-ms") po.start_ms = long(parse_u64(flag, v, 1, 3600000));
  else throw pv::usage_error("unknown adapter option '" + flag + "'");
  if (flag != "--impl-cmd") po.given_flags += " " + flag + " " + text::shell_quote(v);
}

std::string process_replay_flags() { return process_settings().given_flags; }

impl_info probe_process(const std::string& spec, const runner_options& o) {
  const std::string shown = text::visible(spec);
  if (spec.rfind("python:", 0) == 0) {
    const std::string rest = spec.substr(7);
    const auto colon = rest.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == rest.size())
      throw load_error("cannot use '" + shown + "': write python:MODULE:OBJECT, e.g. python:my_kernels:LlamaRope");
  } else if (spec.size() <= 4) {
    throw load_error("cannot use '" + shown + "': --impl-cmd needs a command");
  }
  const std::string e = start_server(spec, o);
  if (!e.empty()) throw load_error("cannot start the server of '" + shown + "': " + e);
  const server_state& s = g_server;
  impl_info info;
  info.path = info.given = spec;
  info.name = text::visible(s.hello.name.substr(0, 200));
  if (info.name.empty()) info.name = text::visible(spec.substr(spec.find(':') + 1));
  info.abi_version = PV_ABI_VERSION;
  info.accuracy = s.hello.accuracy;
  // the protocol carries each call's dtype and a kernel declines what it does
  // not take (NotImplementedError): every dtype is offered
  info.dtypes = kEveryDtype;
  // the operations the negotiated protocol carries (attend from version 4)
  std::uint32_t piped = 0;
  for (std::size_t k = 0; k < operations().size(); ++k)
    if (operations()[k].protocol && operations()[k].protocol <= s.hello.version) piped |= 1u << k;
  info.provides = s.hello.provides & piped;
  // of the configurations of ABI version 3: those the server declares in
  // protocol 2, partial rotary only in protocol 1 (read_hello)
  if (info.has(op::rope)) info.rope_caps = s.hello.rope_caps;
  if (info.has(op::attend)) {
    info.attend_caps = s.hello.attend_caps;
    info.attend_empty_rows = s.hello.attend_empty_rows;
  }
  for (const char* acc : {"", "float32", "float16", "bfloat16", "float16-pv-accumulation", "float16-accumulation"})
    if (info.accuracy == acc) return info;
  throw load_error("cannot use '" + shown + "': it declares accuracy class '" + text::visible(info.accuracy) +
                   "' (float32, float16, bfloat16, float16-pv-accumulation or float16-accumulation)");
}

void ensure_server(const impl_info& lib, const runner_options& o) {
  if (!is_process_spec(lib.path)) return;
  server_state& s = g_server;
  bool alive = s.pid > 0 && s.spec == lib.path && !s.dirty;
  if (alive && ::waitpid(s.pid, nullptr, WNOHANG) != 0) alive = false;  // it ended between batches
  if (alive) {
    drain(s.err, -1, nullptr);  // anything it said between batches
    return;
  }
  if (s.given_up == lib.path) return;  // each call is answered with the failure (forward)
  if (start_server(lib.path, o).empty()) return;
  s.given_up = lib.path;
  s.failure = "it could not be restarted (" + s.failure + "); posverify does not try again in this run";
}

std::uint64_t server_generation() { return g_generation; }

void server_after_fatal(const impl_info& lib) {
  if (is_process_spec(lib.path)) g_server.dirty = true;
}

int adopt_server_fds(int fd) {
  const server_state& s = g_server;
  if (s.pid <= 0) return 0;
  ::dup2(s.to, fd);
  ::dup2(s.from, fd + 1);
  ::dup2(s.err, fd + 2);
  g_to = fd;
  g_from = fd + 1;
  g_err = fd + 2;
  return 3;
}

std::uint32_t server_in_child() {
  ::signal(SIGPIPE, SIG_IGN);  // a dead server: EPIPE, reported, not a silent death
  // a server that is not running answers every call with an error (forward)
  return g_to >= 0 ? g_server.hello.provides : ~0u;
}

std::uint32_t server_declares(const operation& o) {
  if (g_to < 0) return ~0u;
  const hello_answer& h = g_server.hello;
  if (&o == &operation_of(op::rope)) return h.rope_caps;
  if (&o == &operation_of(op::attend)) return h.attend_caps | (h.attend_empty_rows ? attend_row::kEmptyRows : 0u);
  return ~0u;
}

std::string request_body(const operation& o, const invocation& a, std::uint32_t protocol) {
  const call& c = *a.c;
  const auto& rows = operations();
  writer w;
  w.put<std::uint8_t>(std::uint8_t(kFirstOperation + (&o - rows.data())));
  w.put<std::uint8_t>(std::uint8_t(c.t));
  std::size_t k = 0;  // the next scalar
  for (const field& f : o.fields) {
    if (f.protocol > protocol) {  // not in this version (a scalar's value is still consumed)
      if (f.config < 0) ++k;
      continue;
    }
    if (f.config >= 0) {
      put_field(w, f, static_cast<const unsigned char*>(a.buf[std::size_t(f.config)]) + f.offset);
    } else {
      const scalar& v = c.scalars.at(k++);
      if (f.type == wire::f64) put_field(w, f, reinterpret_cast<const unsigned char*>(&v.f));
      else if (f.type == wire::i64) put_field(w, f, reinterpret_cast<const unsigned char*>(&v.i));
      else {
        const std::int32_t i32 = std::int32_t(v.i);
        put_field(w, f, reinterpret_cast<const unsigned char*>(&i32));
      }
    }
  }
  for (std::size_t b = 0; b < o.buffers.size(); ++b)  // configurations travel as their fields
    if (o.buffers[b].use != role::out && o.buffers[b].type != elem::config) w.bytes(a.buf[b], c.input(b).size());
  return w.b;
}

namespace {

/// The bytes of each configuration buffer of o that the fields of protocol
/// `protocol` carry, as sorted, merged [begin, end) runs (none for another
/// buffer); worked out once per operation and version, since travels is
/// asked of every call a server is sent (a map: what it returns stays valid).
const std::vector<std::vector<std::pair<std::size_t, std::size_t>>>& carried(const operation& o,
                                                                             std::uint32_t protocol) {
  using runs = std::vector<std::vector<std::pair<std::size_t, std::size_t>>>;
  static std::map<std::pair<const operation*, std::uint32_t>, runs> memo;
  if (const auto it = memo.find({&o, protocol}); it != memo.end()) return it->second;
  runs r(o.buffers.size());
  for (const field& f : o.fields)
    if (f.config >= 0 && f.protocol <= protocol) {
      const std::size_t width = (f.type == wire::f64 || f.type == wire::i64 ? 8 : 4) * std::size_t(f.count);
      r[std::size_t(f.config)].emplace_back(f.offset, f.offset + width);
    }
  for (auto& v : r) {
    std::sort(v.begin(), v.end());
    std::vector<std::pair<std::size_t, std::size_t>> merged;
    for (const auto& x : v)
      if (!merged.empty() && x.first <= merged.back().second) merged.back().second = std::max(merged.back().second, x.second);
      else merged.push_back(x);
    v = std::move(merged);
  }
  return memo.emplace(std::make_pair(&o, protocol), std::move(r)).first->second;
}

/// Whether bytes [from, to) of p are all 0.
bool zero(const unsigned char* p, std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to; ++i)
    if (p[i]) return false;
  return true;
}

}  // namespace

bool travels(const operation& o, const call& c, std::uint32_t protocol) {
  std::size_t k = 0;  // a scalar of a later version (attend's n_cu) must be 0
  for (const field& f : o.fields)
    if (f.config < 0 && k < c.scalars.size() && c.scalars[k++].i != 0 && f.protocol > protocol) return false;
  const auto& runs = carried(o, protocol);
  for (std::size_t b = 0; b < o.buffers.size(); ++b) {
    if (o.buffers[b].type != elem::config) continue;
    // every byte no field of this version carries is 0
    const std::vector<unsigned char>& bytes = c.input(b);
    std::size_t at = 0;
    for (const auto& [begin, end] : runs[b]) {
      if (!zero(bytes.data(), at, std::min(begin, bytes.size()))) return false;
      at = std::max(at, end);
    }
    if (!zero(bytes.data(), at, bytes.size())) return false;
  }
  return true;
}

namespace {

/// Copies a dense output (row-major over b's shape) into the strided buffer
/// `to` of call c, whose outer strides are field b.strides (operation.h);
/// the gaps between strides keep what they held.
void scatter(const operation& o, const buffer& b, const invocation& a, const char* from) {
  const call& c = *a.c;
  const field* f = nullptr;
  for (const field& x : o.fields)
    if (std::strcmp(x.name, b.strides) == 0) f = &x;
  std::int64_t stride[3] = {};
  std::memcpy(stride, static_cast<const unsigned char*>(a.buf[std::size_t(f->config)]) + f->offset, sizeof stride);
  const std::size_t es = elem_size(c.t);
  const std::int64_t last = c.extent(b, 3);
  auto* to = static_cast<char*>(a.buf[std::size_t(&b - o.buffers.data())]);
  attend_row::for_each_row(stride, c.extent(b, 0), c.extent(b, 1), c.extent(b, 2), last,
               [&](std::size_t dense, std::size_t strided) {
                 std::memcpy(to + strided * es, from + dense * es, std::size_t(last) * es);
               });
}

}  // namespace

void server_next(const call* c) { g_next = c; }

int server_invoke(const operation& o, const invocation& a) {
  const call& c = *a.c;
  const std::uint32_t version = g_server.hello.version;
  const bool sent = g_sent_ahead == &c;  // its request went out with the previous call's answer
  if (g_sent_ahead && !sent) {  // one request ahead, and it must be the next call made
    std::fprintf(stderr, "\nposverify: internal error: the server holds the request of a call other than this one\n");
    std::fflush(stderr);
    ::_exit(kExitServerLost);
  }
  g_sent_ahead = nullptr;
  // e.g. scaled RoPE speeds in version 1: the server would be told another
  // configuration (its rope_caps already keep such calls back: a safety net)
  if (!travels(o, c, version) || o.protocol > version) {
    const std::string why = std::string("posverify: this ") + o.name +
                            " configuration has members that protocol version " + std::to_string(version) +
                            " does not carry (docs/protocol.md)\n";
    (void)!::write(2, why.data(), why.size());
    return 1;
  }
  writer w;
  if (!sent) w.b = request_body(o, a, version);
  // the outputs, dense, one after the other (docs/protocol.md, "Answers")
  std::size_t ob = 0;
  for (std::size_t b = o.output(); b < o.buffers.size(); ++b) ob += c.dense_bytes(o.buffers[b]);
  answer ans = forward(w, ob, sent);
  if (ans.status == kOk) {
    const char* from = ans.payload.data();
    for (std::size_t b = o.output(); b < o.buffers.size(); ++b) {
      const buffer& out = o.buffers[b];
      if (out.strides) scatter(o, out, a, from);
      else if (c.dense_bytes(out)) std::memcpy(a.buf[b], from, c.dense_bytes(out));
      from += c.dense_bytes(out);
    }
  }
  // a server that reports writing into its j-th input: the same change in
  // the guarded input, where the sandbox's comparison finds it
  int j = 0;
  for (std::size_t b = 0; b < o.buffers.size(); ++b)
    if (o.buffers[b].use == role::in && o.buffers[b].type != elem::config) {
      if ((ans.written & (1u << j)) && c.input(b).size()) *static_cast<unsigned char*>(a.buf[b]) ^= 0x01;
      ++j;
    }
  return status_rc(ans);
}

}  // namespace pv::sandbox
