#include "sandbox/framing.h"

#include "sandbox/call.h"
#include "sandbox/sandbox.h"

#include "core/text.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/uio.h>
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

void set_detail(wire_header& h, const std::string& s) {
  std::snprintf(h.detail, sizeof h.detail, "%s", s.c_str());
}

std::string stderr_marker(std::size_t i) { return "\x1e" + std::to_string(i) + "\n"; }

void send(std::size_t index, const wire_header& h, const std::vector<unsigned char>& out) {
  // header and output in one system call when the channel takes them whole
  iovec v[2] = {{const_cast<wire_header*>(&h), sizeof h}, {const_cast<unsigned char*>(out.data()), out.size()}};
  ssize_t w;
  do w = ::writev(kResultFd, v, out.empty() ? 1 : 2);
  while (w < 0 && errno == EINTR);
  if (w >= 0) {
    const std::size_t sent = std::size_t(w);
    const bool rest = sent < sizeof h ? write_all(kResultFd, reinterpret_cast<const char*>(&h) + sent, sizeof h - sent) &&
                                            write_all(kResultFd, out.data(), out.size())
                                      : write_all(kResultFd, out.data() + (sent - sizeof h), out.size() - (sent - sizeof h));
    if (rest) return;
  }
  const int e = errno;
  std::fprintf(stderr, "posverify child: cannot send the result of call %zu: write to fd %d: %s\n", index,
               kResultFd, std::strerror(e));
  std::fflush(stderr);
  ::_exit(kExitChannelLost);
}

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

}  // namespace pv::sandbox
