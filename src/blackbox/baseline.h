// `posverify check --baseline OLD.json`: the baseline report, read and checked
// in full before anything runs, and the comparison of a run with it.
#pragma once

#include "blackbox/law_run.h"
#include "core/input.h"
#include "core/json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pv::blackbox {

/// The whole-number options of `check` that a baseline also carries; the
/// command line and the baseline validate them with the same ranges.
inline constexpr pv::u64_option cases_option{"--cases", 1, 1000000};
inline constexpr pv::u64_option seed_option{"--seed", 0, UINT64_MAX};
inline constexpr pv::u64_option max_position_option{"--max-position", 1, 1u << 24};

/// Largest baseline file read (a check report is a few hundred kB).
inline constexpr std::size_t max_baseline_bytes = 64u << 20;

struct baseline {
  std::string path;
  json doc;
  std::optional<std::uint64_t> seed, cases, max_position;  ///< as the baseline ran
};

/// Reads `path` (a regular file of at most max_baseline_bytes) and checks it;
/// throws pv::usage_error naming the file, the field and the value.
baseline load_baseline(const std::string& path);

/// Checks the text of a baseline report: valid JSON, "laws" an array of
/// records with "id" and "verdict" strings and a "worst" whose figures are
/// finite numbers >= 0, "seed" and "options" valid as the command line's
/// --seed, --cases and --max-position. Throws pv::usage_error.
baseline parse_baseline(const std::string& text, const std::string& path);

/// Regressions of `now` against the baseline: laws that held and no longer
/// do, and worst errors that grew beyond the margin (one string each).
/// `asked`: the run's --law prefixes; a law of the baseline that none of
/// them selects was not run, so it is not compared (none given: every law).
json compare(const baseline& base, const std::vector<law_result>& now, const std::vector<std::string>& asked = {});

/// The contents of file `path` for option `flag`: a regular file of at most
/// `max_bytes`; throws pv::usage_error naming the flag, file and problem.
std::string read_text(const std::string& path, const std::string& flag, std::size_t max_bytes);

}  // namespace pv::blackbox
