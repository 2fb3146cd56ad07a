#include "sandbox/batch_wire.h"

#include <algorithm>
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

}  // namespace

batch_pieces batch_of(const std::vector<call>& calls, std::size_t first) {
  batch_pieces b;
  std::size_t meta = 24, inputs = 0;
  for (std::size_t i = first; i < calls.size(); ++i) {
    meta += 16 + 16 * calls[i].scalars.size() + 8 * calls[i].in.size();
    inputs += calls[i].in.size();
  }
  b.meta.reserve(meta);
  b.pieces.reserve(2 * inputs + 1);
  std::size_t open = 0;  // the start of the meta bytes not yet in a piece
  const auto close_meta = [&] {
    if (b.meta.size() > open) b.pieces.push_back({nullptr, open, b.meta.size() - open});
    open = b.meta.size();
  };
  put(b.meta, kBatchMagic);
  put(b.meta, std::uint64_t(first));
  put(b.meta, std::uint64_t(calls.size() - first));
  for (std::size_t i = first; i < calls.size(); ++i) {
    const call& c = calls[i];
    put(b.meta, std::uint32_t(c.kind));
    put(b.meta, std::uint32_t(c.t));
    put(b.meta, std::uint32_t(c.scalars.size()));
    put(b.meta, std::uint32_t(c.in.size()));
    for (const scalar& s : c.scalars) {
      put(b.meta, s.i);
      put(b.meta, s.f);
    }
    for (const auto& in : c.in) {
      put(b.meta, std::uint64_t(in.size()));
      if (in.empty()) continue;
      close_meta();
      b.pieces.push_back({in.data(), 0, in.size()});
      b.bytes += in.size();
    }
  }
  close_meta();
  b.bytes += b.meta.size();
  return b;
}

std::vector<unsigned char> encode_batch(const std::vector<call>& calls, std::size_t first) {
  const batch_pieces b = batch_of(calls, first);
  std::vector<unsigned char> out;
  out.reserve(b.bytes);
  for (const auto& p : b.pieces) put(out, b.address(p), p.size);
  return out;
}

bool batch_reader::get(void* p, std::size_t n, bool at_start) {
  auto* c = static_cast<unsigned char*>(p);
  std::size_t got = 0;
  while (got < n) {
    if (pos_ < end_) {
      const std::size_t k = std::min(n - got, end_ - pos_);
      std::memcpy(c + got, buf_.data() + pos_, k);
      pos_ += k;
      got += k;
      continue;
    }
    // what is left of a large buffer goes straight to its place
    const bool direct = n - got >= buf_.size();
    const ssize_t r = direct ? ::read(fd_, c + got, n - got) : ::read(fd_, buf_.data(), buf_.size());
    if (r > 0) {
      if (direct) got += std::size_t(r);
      else pos_ = 0, end_ = std::size_t(r);
    } else if (r < 0 && errno == EINTR) {
      continue;
    } else if (r == 0 && got == 0 && at_start) {
      return false;
    } else {
      ::_exit(kExitBadBatch);
    }
  }
  return true;
}

bool batch_reader::next(std::size_t& first, std::vector<call>& calls) {
  std::uint32_t magic = 0;
  if (!get(&magic, sizeof magic, true)) return false;
  if (magic != kBatchMagic) ::_exit(kExitBadBatch);
  first = std::size_t(get<std::uint64_t>());
  const auto n = get<std::uint64_t>();
  calls.clear();
  calls.reserve(std::size_t(n));
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto kind = get<std::uint32_t>(), t = get<std::uint32_t>();
    const auto ns = get<std::uint32_t>(), ni = get<std::uint32_t>();
    std::vector<scalar> sc;
    for (std::uint32_t k = 0; k < ns; ++k) {
      scalar s(0L);
      s.i = get<std::int64_t>();
      s.f = get<double>();
      sc.push_back(s);
    }
    std::vector<std::vector<unsigned char>> in(ni);
    for (auto& b : in) {
      b.resize(std::size_t(get<std::uint64_t>()));
      get(b.data(), b.size());
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
