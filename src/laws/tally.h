// The outcome of a law judged entry by entry: whether every compared entry
// met its tolerance, and how many were compared (fewer when a judge's
// visitor stopped early). Each law's body counts its entries with count().
#pragma once

#include "numerics/scalar.h"

#include <cstddef>

namespace pv::laws {

struct tally {
  bool within = true;
  std::size_t entries = 0;

  /// Counts one compared entry whose verdict is `ok`; returns it.
  bool count(bool ok) {
    ++entries;
    if (!ok) within = false;
    return ok;
  }
  /// Counts one entry that must satisfy diff <= bound.
  bool count(const hp& diff, const hp& bound) { return count(diff <= bound); }
};

}  // namespace pv::laws
