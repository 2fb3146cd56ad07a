#include "sandbox/batch_wire.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <unistd.h>

namespace pv::sandbox {

namespace {

void put(std::vector<unsigned char>& b, const void* p, std::size_t n) {
  const auto* c = static_cast<const unsigned char*>(p);
  b.insert(b.end(), c, c + n);
}
template <class T>
void put(std::vector<unsigned char>& b, T v) {
  put(b, &v, sizeof v);
}

/// Reads exactly n bytes; false at the end of the channel before any byte,
/// exits with kExitBadBatch after some (a batch cut short).
bool get(int fd, void* p, std::size_t n, bool at_start = false) {
  auto* c = static_cast<unsigned char*>(p);
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd, c + got, n - got);
    if (r > 0) got += std::size_t(r);
    else if (r < 0 && errno == EINTR) continue;
    else if (r == 0 && got == 0 && at_start) return false;
    else ::_exit(kExitBadBatch);
  }
  return true;
}
template <class T>
T get(int fd) {
  T v{};
  get(fd, &v, sizeof v);
  return v;
}

}  // namespace

std::vector<unsigned char> encode_batch(const std::vector<call>& calls, std::size_t first) {
  std::vector<unsigned char> b;
  std::size_t bytes = 64;
  for (std::size_t i = first; i < calls.size(); ++i) {
    bytes += 16 + 16 * calls[i].scalars.size();
    for (const auto& in : calls[i].in) bytes += 8 + in.size();
  }
  b.reserve(bytes);
  put(b, kBatchMagic);
  put(b, std::uint64_t(first));
  put(b, std::uint64_t(calls.size() - first));
  for (std::size_t i = first; i < calls.size(); ++i) {
    const call& c = calls[i];
    put(b, std::uint32_t(c.kind));
    put(b, std::uint32_t(c.t));
    put(b, std::uint32_t(c.scalars.size()));
    put(b, std::uint32_t(c.in.size()));
    for (const scalar& s : c.scalars) {
      put(b, s.i);
      put(b, s.f);
    }
    for (const auto& in : c.in) {
      put(b, std::uint64_t(in.size()));
      put(b, in.data(), in.size());
    }
  }
  return b;
}

bool read_batch(int fd, std::size_t& first, std::vector<call>& calls) {
  std::uint32_t magic = 0;
  if (!get(fd, &magic, sizeof magic, true)) return false;
  if (magic != kBatchMagic) ::_exit(kExitBadBatch);
  first = std::size_t(get<std::uint64_t>(fd));
  const auto n = get<std::uint64_t>(fd);
  calls.clear();
  calls.reserve(std::size_t(n));
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto kind = get<std::uint32_t>(fd), t = get<std::uint32_t>(fd);
    const auto ns = get<std::uint32_t>(fd), ni = get<std::uint32_t>(fd);
    std::vector<scalar> sc;
    for (std::uint32_t k = 0; k < ns; ++k) {
      scalar s(0L);
      s.i = get<std::int64_t>(fd);
      s.f = get<double>(fd);
      sc.push_back(s);
    }
    std::vector<std::vector<unsigned char>> in(ni);
    for (auto& b : in) {
      b.resize(std::size_t(get<std::uint64_t>(fd)));
      get(fd, b.data(), b.size());
    }
    try {
      calls.emplace_back(op(kind), pv_dtype(t), std::move(sc), std::move(in));
    } catch (const std::exception&) {
      ::_exit(kExitBadBatch);
    }
  }
  return true;
}

}  // namespace pv::sandbox
