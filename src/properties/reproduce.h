// The reproduce string of a failing property: RapidCheck's serialised
// Reproduce (random state, size, shrink path) as hex. The decoder reads only
// what it checked, so a hostile string is an error, never a read past its end
// or a size that makes the generators allocate without limit.
#pragma once

#include <rapidcheck.h>

#include <string>

namespace pv::prop {

/// Longest reproduce string accepted, in hex digits (a real one is ~80 plus
/// a few per shrink step).
inline constexpr std::size_t max_reproduce_hex = 1 << 17;

/// The hex string of `r`.
std::string encode_reproduce(const rc::detail::Reproduce& r);

/// Decodes a reproduce string; its size must lie in [0, max_size] (the size
/// the runner generates with). Throws std::invalid_argument naming the
/// problem: empty, odd length, a non-hex character, too long, truncated,
/// trailing bytes, a field out of range.
rc::detail::Reproduce decode_reproduce(const std::string& hex, int max_size);

}  // namespace pv::prop
