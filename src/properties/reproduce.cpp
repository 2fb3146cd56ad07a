#include "properties/reproduce.h"

#include <rapidcheck/detail/Results.hpp>

#include <cstdint>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <vector>

namespace pv::prop {

namespace {

[[noreturn]] void bad(const std::string& why) {
  throw std::invalid_argument("reproduce string: " + why);
}

std::vector<std::uint8_t> from_hex(const std::string& s) {
  if (s.empty()) bad("empty (give the hex string printed with the failure)");
  if (s.size() > max_reproduce_hex)
    bad(std::to_string(s.size()) + " hex digits, more than the " +
        std::to_string(max_reproduce_hex) + " accepted");
  if (s.size() % 2) bad("odd number of hex digits (" + std::to_string(s.size()) + "): truncated?");
  auto nib = [&](std::size_t i) -> int {
    const char c = s[i];
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    bad("character " + std::to_string(i + 1) + " is not a hex digit");
  };
  std::vector<std::uint8_t> out;
  out.reserve(s.size() / 2);
  for (std::size_t i = 0; i < s.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(nib(i) * 16 + nib(i + 1)));
  return out;
}

// Walks the layout of RapidCheck's serialize(Reproduce) (rapidcheck/Random.hpp,
// detail/Results.hpp, detail/Serialization.hpp) and checks every field.
struct reader {
  const std::vector<std::uint8_t>& b;
  std::size_t p = 0;
  void need(std::size_t n, const char* field) {
    if (b.size() - p < n) bad(std::string("truncated in ") + field);
  }
  /// A little-endian base-128 varint that must fit `bits` bits.
  std::uint64_t compact(const char* field, int bits) {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      need(1, field);
      const std::uint8_t x = b[p++];
      if (shift >= 64 || (shift > 0 && (x & 0x7F) >> std::min(7, 64 - shift)))
        bad(std::string(field) + " does not fit 64 bits");
      v |= std::uint64_t(x & 0x7F) << shift;
      if (!(x & 0x80)) {
        if (x == 0 && shift > 0) bad(std::string(field) + " has a redundant zero byte");  // not as RapidCheck writes it
        break;
      }
    }
    if (bits < 64 && v >> bits) bad(std::string(field) + " " + std::to_string(v) + " is out of range");
    return v;
  }
};

}  // namespace

std::string encode_reproduce(const rc::detail::Reproduce& r) {
  std::vector<std::uint8_t> bytes;
  rc::detail::serialize(r, std::back_inserter(bytes));
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (auto x : bytes) {
    s += digits[x >> 4];
    s += digits[x & 15];
  }
  return s;
}

rc::detail::Reproduce decode_reproduce(const std::string& hex, int max_size) {
  const auto bytes = from_hex(hex);
  reader r{bytes};
  r.need(32, "the random key (32 bytes)");
  r.p += 32;
  r.compact("the random bits", 64);
  r.compact("the random counter", 64);
  r.need(1, "the random bit index");
  if (bytes[r.p] > 64) bad("random bit index " + std::to_string(bytes[r.p]) + " exceeds 64");
  ++r.p;
  r.need(4, "the size");
  const std::uint32_t size = std::uint32_t(bytes[r.p]) | std::uint32_t(bytes[r.p + 1]) << 8 |
                             std::uint32_t(bytes[r.p + 2]) << 16 | std::uint32_t(bytes[r.p + 3]) << 24;
  r.p += 4;
  if (size > std::uint32_t(max_size))
    bad("size " + std::to_string(size) + " is out of range [0, " + std::to_string(max_size) + "]");
  const std::uint64_t steps = r.compact("the shrink path length", 64);
  if (steps > bytes.size() - r.p)  // every step takes at least one byte
    bad("truncated in the shrink path (" + std::to_string(steps) + " steps, " +
        std::to_string(bytes.size() - r.p) + " bytes left)");
  for (std::uint64_t i = 0; i < steps; ++i) r.compact("a shrink step", 32);
  if (r.p != bytes.size()) bad(std::to_string(bytes.size() - r.p) + " trailing bytes");

  rc::detail::Reproduce out;
  rc::detail::deserialize(bytes.begin(), bytes.end(), out);  // every field checked above
  return out;
}

}  // namespace pv::prop
