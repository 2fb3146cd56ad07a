// sinusoid.linear_shift (laws/sinusoid/linear_shift.h): the property draws
// speeds (the ladder or explicit ones), a position m and a distance k, and
// judges the law within its white-box bound in hp, float64 and float32.
#include "properties/property.h"
#include "laws/sinusoid/linear_shift.h"

namespace {
namespace linear_shift_property {  // this file's names (a unity build compiles several files as one)

using namespace pv;

namespace law = pv::laws::linear_shift;

template <class T>
void compare_in_type(const gen::rope_spec& spec, double m, double k) {
  // the speeds of a RoPE spec: the ladder computed in T, or explicit ones
  std::vector<T> w;
  if (spec.ladder) w = geometric_speeds<T>(spec.d, T(spec.theta));
  else for (double v : spec.speeds) w.push_back(T(v));
  law::evaluate(w, m, k, [&](const law::entry<T>& e) {
    prop::expect_close<T>("p(m+k)_" + std::to_string(e.index) + " vs (M_k p(m))_" + std::to_string(e.index) +
                              " at m = " + to_decimal(m) + ", k = " + to_decimal(k),
                          e.shifted, e.mapped, e.bound);
    return true;
  });
}


PV_PROPERTY(law::id,
            law::statement() + " (speeds from the base^(-2i/d) ladder or explicit; |m|, |k| up to 2^20)",
            law::tolerance_rule(),
            [] {
              const auto spec = *gen::rope_1d(2, 16);  // (the pairing is not used)
              const auto m = *gen::shift_int();
              const auto k = *gen::shift_int();
              RC_TAG(spec.ladder ? "ladder" : "explicit speeds");
              RC_TAG(std::abs(m) >= 64 || std::abs(k) >= 64 ? "large" : "small");
              compare_in_type<hp>(spec, double(m), double(k));
              compare_in_type<double>(spec, double(m), double(k));
              compare_in_type<float>(spec, double(m), double(k));
            });

}  // namespace linear_shift_property
}  // namespace
