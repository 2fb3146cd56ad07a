// libFuzzer target: the JSON reader (src/core/json.cpp) and the baseline
// validator on top of it (src/blackbox/baseline.cpp). Invariants: no crash, no
// exception other than the documented ones, and whatever parses round-trips
// through the writer to the same bytes.
#include "blackbox/baseline.h"
#include "core/json.h"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  pv::json j;
  try {
    j = pv::json::parse(text);
  } catch (const std::runtime_error&) {
    return 0;  // a clear error: fine
  }
  const std::string once = j.dump();
  if (pv::json::parse(once).dump() != once) std::abort();  // the writer emits what the reader reads back
  try {
    (void)pv::blackbox::parse_baseline(text, "fuzz.json");
  } catch (const pv::usage_error&) {
  }
  return 0;
}
