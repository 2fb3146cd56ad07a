#include "check/rope_model.h"

#include <cctype>  // isdigit
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace pv::check {

rope_cfg parse_rope_config(const std::string& spec) {
  auto bad = [&](const std::string& why) {
    return std::invalid_argument("--rope-config '" + spec + "': " + why +
                                 " (expected PAIRING:THETA:DIMS, e.g. halves:500000:128 or "
                                 "adjacent:10000:16,56,56)");
  };
  std::size_t c1 = spec.find(':'), c2 = c1 == std::string::npos ? c1 : spec.find(':', c1 + 1);
  if (c2 == std::string::npos) throw bad("needs three fields separated by ':'");
  const std::string pairing = spec.substr(0, c1), theta_s = spec.substr(c1 + 1, c2 - c1 - 1),
                    dims_s = spec.substr(c2 + 1);
  rope_cfg r;
  r.spec = spec;
  if (pairing == "adjacent") r.c.pairing = PV_PAIRS_ADJACENT;
  else if (pairing == "halves") r.c.pairing = PV_PAIRS_HALVES;
  else throw bad("pairing '" + pairing + "' is neither adjacent nor halves");
  char* end = nullptr;
  r.c.theta = std::strtod(theta_s.c_str(), &end);
  // strtod also takes leading blanks, a sign, hex and "inf": only a plain decimal
  const bool plain = !theta_s.empty() && std::isdigit(static_cast<unsigned char>(theta_s[0])) &&
                     theta_s.find_first_not_of("0123456789.eE+-") == std::string::npos;
  if (!plain || *end || !std::isfinite(r.c.theta) || r.c.theta <= 1)
    throw bad("theta '" + theta_s + "' is not a number greater than 1");
  std::size_t i = 0;
  int sum = 0;
  r.c.n_axes = 0;
  std::string dims_name;
  while (i <= dims_s.size()) {
    std::size_t c = dims_s.find(',', i);
    if (c == std::string::npos) c = dims_s.size();
    const std::string d = dims_s.substr(i, c - i);
    long v = d.size() > 4 || d.find_first_not_of("0123456789") != std::string::npos ? 0 : std::strtol(d.c_str(), &end, 10);
    if (d.empty() || v <= 0 || v % 2 || v > 4096)
      throw bad("axis dimension '" + d + "' is not an even number in [2, 4096]");
    if (r.c.n_axes == 4) throw bad("at most 4 axes");
    r.c.axes_dim[r.c.n_axes++] = static_cast<int>(v);
    sum += static_cast<int>(v);
    dims_name += (dims_name.empty() ? "" : "-") + d;
    i = c + 1;
  }
  if (sum > 4096) throw bad("head_dim " + std::to_string(sum) + " exceeds 4096");
  r.c.head_dim = sum;
  r.name = "user-" + pairing + "-" + dims_name + "-theta" + theta_s;
  return r;
}

}  // namespace pv::check
