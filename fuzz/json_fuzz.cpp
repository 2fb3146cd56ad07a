// libFuzzer target: the JSON reader (src/posverify/json.cpp) and the baseline
// validator on top of it (src/check/baseline.cpp). Invariants: no crash, no
// exception other than the documented ones, and whatever parses round-trips
// through the writer to the same bytes.
#include "check/baseline.h"
#include "posverify/json.h"

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
    (void)pv::check::parse_baseline(text, "fuzz.json");
  } catch (const pv::cli::usage_error&) {
  }
  return 0;
}
