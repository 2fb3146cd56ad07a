#include "sandbox/kept_child.h"

#include "sandbox/batch_wire.h"
#include "sandbox/child_calls.h"
#include "sandbox/process_adapter.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

namespace pv::sandbox {

namespace {

/// At most this many pieces per sendmsg (the system's IOV_MAX is 1024).
constexpr std::size_t kMaxPiecesPerSend = 512;

struct kept_child {
  child_proc c;
  int cmd = -1;  ///< posverify's end of its command socket
  std::string path;
  std::uint64_t memory_limit = 0;
  pid_t owner = 0;  ///< the process that started it: a fork of it neither uses nor ends it
  /// the server it forwards to (server_generation, process_adapter.h): a
  /// server restarted since leaves it holding the pipes of a dead one
  std::uint64_t server = 0;
};
kept_child* g_kept = nullptr;

/// Writes the batch calls[first..] to k's command socket, draining its
/// stderr meanwhile; false if the child died or did not take it within the
/// first call's time limit. The calls' input buffers go to the socket from
/// where they are (batch_of), not copied into one buffer first.
bool send_batch(kept_child& k, const std::vector<call>& calls, std::size_t first, const runner_options& o) {
  const batch_pieces b = batch_of(calls, first);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(call_timeout_ms(calls[first], o));
  std::size_t piece = 0, at = 0;  // the first byte not yet sent: byte `at` of pieces[piece]
  std::vector<iovec> iov;
  while (piece < b.pieces.size()) {
    iov.clear();
    for (std::size_t p = piece; p < b.pieces.size() && iov.size() < kMaxPiecesPerSend; ++p) {
      const std::size_t skip = p == piece ? at : 0;
      iov.push_back({const_cast<unsigned char*>(b.address(b.pieces[p])) + skip, b.pieces[p].size - skip});
    }
    msghdr m{};
    m.msg_iov = iov.data();
    m.msg_iovlen = iov.size();
    const ssize_t w = ::sendmsg(k.cmd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w > 0) {
      std::size_t left = std::size_t(w);
      while (left > 0 && piece < b.pieces.size()) {
        const std::size_t here = std::min(left, b.pieces[piece].size - at);
        left -= here;
        at += here;
        if (at == b.pieces[piece].size) ++piece, at = 0;
      }
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return false;  // EPIPE: it died
    if (k.c.check_dead() || std::chrono::steady_clock::now() >= deadline) return false;
    pollfd f[2] = {{k.cmd, POLLOUT, 0}, {k.c.err, POLLIN, 0}};
    ::poll(f, k.c.err >= 0 ? 2 : 1, 50);
    k.c.drain_err();
  }
  return true;
}

}  // namespace

child_proc* kept_with_batch(const impl_info& lib, const std::vector<call>& calls, std::size_t first,
                            const runner_options& o) {
  if (g_kept && g_kept->owner != ::getpid()) g_kept = nullptr;  // another process's: forgotten, not ended
  if (g_kept && (g_kept->path != lib.path || g_kept->memory_limit != o.memory_limit ||
                 g_kept->server != server_generation() || g_kept->c.check_dead()))
    end_kept_child();
  if (!g_kept) {
    int cp[2];  // a socket, not a pipe: a child that died is EPIPE (MSG_NOSIGNAL), not SIGPIPE
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, cp) != 0) return nullptr;
    auto* k = new kept_child;
    try {
      if (spawn(k->c, o, cp[0])) child_serve_kept(lib.path, o.memory_limit);
    } catch (const std::exception&) {
      ::close(cp[0]);
      ::close(cp[1]);
      delete k;
      return nullptr;
    }
    ::close(cp[0]);
    k->cmd = cp[1];
    const int buf = 1 << 20;    // fewer wake-ups for a large batch (the system's cap if lower)
    ::setsockopt(k->cmd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf);
    k->path = lib.path;
    k->memory_limit = o.memory_limit;
    k->owner = ::getpid();
    k->server = server_generation();
    g_kept = k;
    static const bool at_exit = std::atexit(end_kept_child) == 0;
    (void)at_exit;
  } else {  // what it said after its last batch is no call's of this one
    g_kept->c.drain_err();
    g_kept->c.tail.clear();
    g_kept->c.tail_cut = false;
    g_kept->c.enomem = false;
  }
  if (!send_batch(*g_kept, calls, first, o)) {
    end_kept_child();
    return nullptr;
  }
  return &g_kept->c;
}

void end_kept_child() {
  if (!g_kept || g_kept->owner != ::getpid()) return;
  kept_child* k = g_kept;
  g_kept = nullptr;
  k->c.finish();
  if (k->cmd >= 0) ::close(k->cmd);
  delete k;
}

}  // namespace pv::sandbox
