#include "orders.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace pv::proofs {

matrix<double> p5_tokens() { return {{1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}}; }

std::vector<permutation> all_permutations(std::size_t n) {
  permutation p(n);
  std::iota(p.begin(), p.end(), std::size_t{0});
  std::vector<permutation> all;
  do all.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return all;
}

namespace {
template <class I, class F>
I ordered_bits(F x) {
  I i;
  std::memcpy(&i, &x, sizeof x);
  // Map sign-magnitude to a monotone two's-complement scale.
  return i < 0 ? static_cast<I>(std::numeric_limits<I>::min() - i) : i;
}
}  // namespace

std::int64_t ulp_distance(double a, double b) {
  const std::int64_t x = ordered_bits<std::int64_t>(a), y = ordered_bits<std::int64_t>(b);
  return x > y ? x - y : y - x;
}

std::int64_t ulp_distance(float a, float b) {
  const std::int64_t x = ordered_bits<std::int32_t>(a), y = ordered_bits<std::int32_t>(b);
  return x > y ? x - y : y - x;
}

json to_json(const order_sweep& s, bool ieee) {
  json j = json::object();
  j.set("orders", json::integer(static_cast<std::int64_t>(s.orders)));
  j.set("max_abs_diff", json::string(ref::to_decimal(s.max_abs_diff, 30)));
  j.set("max_ratio_to_reorder_bound", json::string(ref::to_decimal(s.max_ratio_to_bound, 6)));
  j.set("within_reorder_bound", json::boolean(s.within_bound));
  if (ieee) {
    j.set("max_ulps", json::integer(s.max_ulps));
    j.set("bitwise_equal", json::boolean(s.bitwise_equal));
  }
  j.set("worst_order", json::string(to_string(s.worst)));
  return j;
}

}  // namespace pv::proofs
