// A byte count as the messages and reports print it (sandbox.h: size_text),
// apart from the process code so that a report's reader links without it.
#include "sandbox/sandbox.h"

namespace pv::sandbox {

std::string size_text(std::uint64_t b) {
  if (b >= (1ull << 30) && b % (1ull << 30) == 0) return std::to_string(b >> 30) + " GiB";
  if (b >= (1ull << 20) && b % (1ull << 20) == 0) return std::to_string(b >> 20) + " MiB";
  if (b >= (1ull << 10) && b % (1ull << 10) == 0) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " bytes";
}

}  // namespace pv::sandbox
