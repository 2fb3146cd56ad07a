#include "blackbox/accuracy.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace pv::blackbox {

accuracy_class parse_accuracy(const std::string& name) {
  accuracy_class a;
  a.name = name;
  if (name == "float16" || name == "float16-accumulation" || name == "float16-pv-accumulation") {
    a.precision = 11;
    a.emin = -14;
    a.max = 65504;
    a.accumulate = name == "float16-accumulation";
    a.accumulate_pv = name == "float16-pv-accumulation";
  } else if (name == "bfloat16") {
    a.precision = 8;
    a.emin = -126;
    a.max = 0x1.fep127;
  } else if (name == "float32" || name.empty()) {
    return accuracy_class{};
  } else {
    throw std::invalid_argument("--accuracy: '" + name +
                                "' is not an accuracy class (float32, float16, bfloat16, float16-pv-accumulation, "
                                "float16-accumulation)");
  }
  a.u = std::ldexp(1.0, -a.precision);
  return a;
}

bool coarser(const accuracy_class& a, const accuracy_class& than) {
  const auto depth = [](const accuracy_class& c) { return c.accumulate ? 2 : c.accumulate_pv ? 1 : 0; };
  return a.u > than.u || (a.u == than.u && depth(a) > depth(than));
}

std::string cause_of(const accuracy_class& a) {
  if (a.accumulate) return "float16 accumulation";
  if (a.accumulate_pv) return "float16 storage with a float16 accumulator of p v";
  return a.name + " storage";
}

double round_to_format(double x, const accuracy_class& a) {
  if (a.precision == 0 || x == 0 || !std::isfinite(x)) return x;
  const int e = std::max(std::ilogb(x), a.emin);  // subnormals share the smallest normal's spacing
  const double q = std::ldexp(1.0, e - a.precision + 1);
  const double r = std::nearbyint(x / q) * q;  // the default rounding mode: to nearest, ties to even
  return std::abs(r) > a.max ? std::copysign(INFINITY, x) : r;
}

}  // namespace pv::blackbox
