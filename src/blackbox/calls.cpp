#include "blackbox/calls.h"

#include <string>
#include <vector>

namespace pv::blackbox {

std::string positions_text(const std::vector<double>& p, std::size_t per_row) {
  std::string s = "[";
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (per_row > 1 && i % per_row == 0) s += (i ? ", (" : "(");
    else if (i) s += ", ";
    s += to_decimal(p[i]);
    if (per_row > 1 && i % per_row == per_row - 1) s += ")";
  }
  return s + "]";
}

}  // namespace pv::blackbox
