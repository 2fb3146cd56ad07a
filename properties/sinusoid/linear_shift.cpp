// sinusoid.linear_shift (CLAIMS.md "sinusoid.linear-shift"): for a fixed
// distance k, p(m + k) = M_k p(m) with M_k block-diagonal rotations that do
// not depend on m (Vaswani et al. 2017, section 3.5).
#include "../check.h"

namespace {

using namespace pv;

template <class T>
void check_type(const gen::rope_spec& spec, double m, double k) {
  // the speeds of a RoPE spec: the ladder computed in T, or explicit ones
  std::vector<T> w;
  if (spec.ladder) w = geometric_speeds<T>(spec.d, T(spec.theta));
  else for (double v : spec.speeds) w.push_back(T(v));
  const auto P = sinusoid_with_speeds<T>({m, m + k}, w);  // rows p(m), p(m + k)
  const auto M = sinusoid_shift_map<T>(w, k);
  matrix<T> pm(w.size() * 2, 1);
  for (std::size_t j = 0; j < pm.rows; ++j) pm(j, 0) = P(0, j);
  const auto Mp = matmul(M, pm);
  const auto B = sinusoid_shift_bound<T>(w, m, k);
  for (std::size_t r = 0; r < pm.rows; ++r) {
    const hp& bound = B[r];
    prop::expect_close<T>("p(m+k)_" + std::to_string(r) + " vs (M_k p(m))_" + std::to_string(r) +
                              " at m = " + to_decimal(m) + ", k = " + to_decimal(k),
                          P(1, r), Mp(r, 0), bound);
  }
}

}  // namespace

PV_PROPERTY("sinusoid.linear_shift",
            "for every distance k there is one fixed matrix M_k (2x2 blocks [[cos kw, sin kw], "
            "[-sin kw, cos kw]] on each (sin, cos) pair) with p(m + k) = M_k p(m) for every "
            "position m (speeds from the base^(-2i/d) ladder or explicit; |m|, |k| up to 2^20)",
            "p~(m+k) within eta(m+k, w) = u |(m+k) w| + 2 ulps of its exact value; M_k p~(m) "
            "within the dot-product bound gamma_d sum |M~ p~| + sum (eM |p~| + (|M~| + eM) ep) "
            "with eM = eta(k, w), ep = eta(m, w) (angle rounding of one product, error_bounds.h); "
            "the two bounds added",
            [] {
              const auto spec = *gen::rope_1d(2, 16);  // (the pairing is not used)
              const auto m = *gen::shift_int();
              const auto k = *gen::shift_int();
              RC_TAG(spec.ladder ? "ladder" : "explicit speeds");
              RC_TAG(std::abs(m) >= 64 || std::abs(k) >= 64 ? "large" : "small");
              check_type<hp>(spec, double(m), double(k));
              check_type<double>(spec, double(m), double(k));
              check_type<float>(spec, double(m), double(k));
            });
