#include "sandbox/child_calls.h"

#include "sandbox/batch_wire.h"
#include "sandbox/framing.h"
#include "sandbox/loading.h"
#include "sandbox/operations.h"
#include "sandbox/process_adapter.h"
#include "sandbox/sandbox.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <unistd.h>

namespace pv::sandbox {
namespace {

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

/// What the child calls: a library's pv_impl, or a server through the pipe.
struct callee {
  const pv_impl* impl = nullptr;  ///< a library (nullptr: a server, or loading failed)
  bool server = false;
  std::uint32_t abi = 0;
  std::uint32_t provides = 0;  ///< bit k: operation k
  std::uint32_t dtypes = 0;    ///< PV_DTYPE_BIT bits of the dtypes it is offered
};

/// The capabilities a library declares for row `o` (none before the row's
/// version). A server declares its RoPE configurations in its HELLO
/// (protocol version 2; partial rotary only in version 1: server_declares).
std::uint32_t declared(const callee& f, const operation& o) {
  if (!o.declares) return 0;
  if (f.server) return server_declares(o);
  if (!f.impl || f.abi < o.since) return 0;
  return o.declares(*f.impl);
}

/// Whether the child answers call c "unsupported" without making it: f does
/// not provide its operation or take its dtype, or c needs a later ABI (it
/// could not know what the call needs) or a capability f does not declare.
bool declines(const callee& f, const call& c) {
  const operation& row = c.row();
  const bool provided = f.provides >> unsigned(c.kind) & 1;
  return !provided || !(f.dtypes >> unsigned(c.t) & 1) || (row.needs && f.abi < row.needs(c)) ||
         (row.demands && (row.demands(c) & ~declared(f, row)) != 0);
}

/// Calls c through its row with guarded buffers and judges what came back:
/// h's return code, status and detail; the output bytes on success.
std::vector<unsigned char> call_guarded(const callee& f, const call& c, wire_header& h, std::uint64_t memory_limit) {
  const operation& row = c.row();
  std::vector<std::unique_ptr<guarded>> g;
  invocation inv;
  inv.t = c.t;
  inv.c = &c;
  for (std::size_t k = 0; k < row.buffers.size(); ++k) {
    if (row.buffers[k].use == role::out) g.push_back(std::make_unique<guarded>(nullptr, c.bytes(row.buffers[k]), 0xFF));
    else g.push_back(std::make_unique<guarded>(c.input(k).data(), c.input(k).size(), 0));
    inv.buf.push_back(g.back()->data());
  }
  // a plugin of an earlier ABI cannot know what this call needs: unsupported, never called
  const bool declined = declines(f, c);
  errno = 0;
  h.rc = declined ? 1 : f.server ? server_invoke(row, inv) : row.invoke(*f.impl, inv);
  const int call_errno = errno;
  std::string bad_guard, bad_input;
  for (std::size_t k = 0; k < row.buffers.size(); ++k) {
    const std::string s = g[k]->check(row.buffers[k].name);
    if (!s.empty()) bad_guard += (bad_guard.empty() ? "" : "; ") + s;
  }
  for (std::size_t k = 0; k < row.buffers.size() && bad_input.empty(); ++k)
    if (row.buffers[k].use == role::in && std::memcmp(g[k]->data(), c.input(k).data(), c.input(k).size()))
      bad_input = std::string("modified input ") + row.buffers[k].name;
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
    if (declined) set_detail(h, kNotDeclared);
  } else {
    h.st = static_cast<std::uint32_t>(status::error_code);
    set_detail(h, "returned error code " + std::to_string(h.rc) +
                      (call_errno == ENOMEM && memory_limit
                           ? " (errno is ENOMEM: an allocation failed; the memory limit is " +
                                 size_text(memory_limit) + ", --memory-limit)"
                           : std::string()));
  }
  // the outputs, in the row's order, one after the other
  std::vector<unsigned char> out;
  for (std::size_t k = row.output(); k < row.buffers.size(); ++k) {
    const guarded& o = *g[k];
    out.insert(out.end(), o.base + kGuard, o.base + kGuard + o.n);
  }
  return out;
}

}  // namespace

namespace {

/// The library (or the server) this child calls; a library that fails to
/// load leaves f empty and says why in err.
callee load_callee(const std::string& path, std::string& err) {
  callee f;
  if (is_process_spec(path)) {
    f.server = true;
    f.abi = PV_ABI_VERSION;
    f.provides = server_in_child();
    f.dtypes = kEveryDtype;
  } else if ((f.impl = load_in_child(path, err))) {
    f.abi = f.impl->abi_version;
    f.provides = provided_by(*f.impl);
    f.dtypes = offered_dtypes(*f.impl);
  }
  return f;
}

/// Runs calls[from..] (the call at position i numbered base + i) and sends
/// each result.
void serve(const callee& f, const std::string& err, const std::vector<call>& calls, std::size_t from,
           std::size_t base, std::uint64_t memory_limit) {
  for (std::size_t i = from; i < calls.size(); ++i) {
    const call& c = calls[i];
    wire_header h{};
    h.magic = kMagic;
    h.index = static_cast<std::uint32_t>(base + i);
    g_note.index = h.index;
    const std::string mark = stderr_marker(base + i);
    (void)!::write(2, mark.data(), mark.size());
    std::vector<unsigned char> out;
    if (!f.impl && !f.server) {
      h.st = static_cast<std::uint32_t>(status::error_code);
      h.rc = -1;
      set_detail(h, err);
    } else {
      // a server gets the next call's request with this call's answer (server_next)
      if (f.server) server_next(i + 1 < calls.size() && !declines(f, calls[i + 1]) ? &calls[i + 1] : nullptr);
      out = call_guarded(f, c, h, memory_limit);
    }
    if (h.st != static_cast<std::uint32_t>(status::ok)) out.clear();
    h.out_len = static_cast<std::uint32_t>(out.size());
    send(base + i, h, out);
  }
}

}  // namespace

void child_serve(const std::string& path, const std::vector<call>& calls, std::size_t first,
                 std::uint64_t memory_limit) {
  arm_enomem_note();
  std::string err;
  const callee f = load_callee(path, err);
  serve(f, err, calls, first, 0, memory_limit);
  ::_exit(0);
}

void child_serve_kept(const std::string& path, std::uint64_t memory_limit) {
  arm_enomem_note();
  std::string err;
  const callee f = load_callee(path, err);
  std::vector<call> calls;
  std::size_t first = 0;
  batch_reader in(kCommandFd);
  while (in.next(first, calls)) serve(f, err, calls, 0, first, memory_limit);
  ::_exit(0);
}

}  // namespace pv::sandbox
