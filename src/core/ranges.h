// Whole numbers in ascending order written as ranges for a finding: the
// rows, keys, pairs or components a diagnosis names ("0-15, 41", "0..4, 7",
// "64 to 130"). One writer for every diagnosis, each keeping its own dash;
// and the lists a finding names ("a, b and c").
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace pv::text {

/// v (ascending) as ranges joined by ", ", each "a" or "a<dash>b"; after `most`
/// ranges, ", ..."; `none` when v is empty.
template <class Int>
std::string ranges(const std::vector<Int>& v, std::string_view dash = "-", std::string_view none = "none",
                   std::size_t most = std::numeric_limits<std::size_t>::max()) {
  if (v.empty()) return std::string(none);
  std::string t;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < v.size(); ++shown) {
    if (shown == most) return t + ", ...";
    std::size_t e = i;
    while (e + 1 < v.size() && v[e + 1] == v[e] + 1) ++e;
    t += (t.empty() ? "" : ", ") + std::to_string(v[i]);
    if (e > i) t.append(dash).append(std::to_string(v[e]));
    i = e + 1;
  }
  return t;
}

/// The items joined as a finding lists them: "a", "a and b", "a, b and c".
inline std::string listed(const std::vector<std::string>& items) {
  std::string t;
  for (std::size_t i = 0; i < items.size(); ++i)
    t.append(i == 0 ? "" : i + 1 == items.size() ? " and " : ", ").append(items[i]);
  return t;
}

}  // namespace pv::text
