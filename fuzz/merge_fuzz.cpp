// libFuzzer target: posverify merge's reading, checking and joining of shard
// reports (reports/merge_reports.cpp, core/shard.h, reports/consistency.cpp)
// and the JUnit XML of the result (reports/junit.h), in process. The input
// is one report, or two split at the first NUL byte (shards a.json and
// b.json). Invariants: no crash, no unbounded time or memory (a shard may
// claim any number of shards and units), only std::runtime_error (naming the
// file and field), and a merged report that writes and reads back the same.
#include "core/json.h"
#include "reports/junit.h"
#include "reports/merge_reports.h"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string in(reinterpret_cast<const char*>(data), size);
  std::vector<std::pair<std::string, std::string>> shards;
  const auto nul = in.find('\0');
  shards.emplace_back("a.json", in.substr(0, nul));
  if (nul != std::string::npos) shards.emplace_back("b.json", in.substr(nul + 1));
  pv::reports::merged_run m;
  try {
    m = pv::reports::merge_reports(shards);
  } catch (const std::runtime_error&) {
    return 0;  // refused, naming the problem: fine
  }
  const std::string once = m.report.dump();
  if (pv::json::parse(once).dump() != once) std::abort();
  try {
    (void)pv::junit::of_report(m.report);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
