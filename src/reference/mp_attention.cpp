#include "reference/mp_attention.h"

#include <mpfr.h>

#include <cmath>

namespace pv::ref {

namespace {

constexpr mpfr_prec_t kBinary64 = 53;  ///< holds any binary64 value exactly
static_assert(GMP_NUMB_BITS == 64 && sizeof(mp_limb_t) == 8, "one limb holds a 53-bit significand");

/// x := v exactly, as a 53-bit MPFR number whose significand is the limb
/// `limb` (MPFR's custom interface): what mpfr_set_d gives, read off the
/// binary64 encoding without a call (frexp normalises subnormals too).
void hold_binary64(__mpfr_struct& x, mp_limb_t& limb, double v) {
  if (std::isnan(v)) {
    mpfr_custom_init_set(&x, MPFR_NAN_KIND, 0, kBinary64, &limb);
  } else if (std::isinf(v)) {
    mpfr_custom_init_set(&x, std::signbit(v) ? -MPFR_INF_KIND : MPFR_INF_KIND, 0, kBinary64, &limb);
  } else if (v == 0) {
    mpfr_custom_init_set(&x, std::signbit(v) ? -MPFR_ZERO_KIND : MPFR_ZERO_KIND, 0, kBinary64, &limb);
  } else {
    int e = 0;
    const double m = std::frexp(std::fabs(v), &e);  // |v| = m 2^e, m in [1/2, 1)
    limb = mp_limb_t(std::ldexp(m, 64));              // m 2^64 in [2^63, 2^64): 53 bits, the 11 below them zero
    mpfr_custom_init_set(&x, v < 0 ? -MPFR_REGULAR_KIND : MPFR_REGULAR_KIND, e, kBinary64, &limb);
  }
}

}  // namespace

std::vector<hp> attention_row(const double* q, const double* k, const double* v, std::size_t n_k, std::size_t d,
                              std::size_t d_v) {
  // numerics/attention.h, exp_scores_row() and attention(), step by step
  std::vector<__mpfr_struct> qs(d);
  std::vector<mp_limb_t> q_limbs(d);
  for (std::size_t l = 0; l < d; ++l) hold_binary64(qs[l], q_limbs[l], q[l]);
  __mpfr_struct x;  // an entry of K or V
  mp_limb_t x_limb;
  hp inv_scale = hp(1) / sqrt(hp(double(d)));  // T(1) / sqrt_(T(d))
  hp acc_, t_, m_, z_;
  mpfr_ptr acc = acc_.backend().data(), t = t_.backend().data(), m = m_.backend().data(), z = z_.backend().data();
  std::vector<hp> e_(n_k);
  const auto e = [&](std::size_t j) { return e_[j].backend().data(); };
  for (std::size_t j = 0; j < n_k; ++j) {  // e_j = dot(q, k_j) * inv_scale, the dot left to right from 0
    mpfr_set_zero(acc, 1);
    for (std::size_t l = 0; l < d; ++l) {
      hold_binary64(x, x_limb, k[j * d + l]);
      mpfr_mul(t, &qs[l], &x, MPFR_RNDN);
      mpfr_add(acc, acc, t, MPFR_RNDN);
    }
    mpfr_mul(e(j), acc, inv_scale.backend().data(), MPFR_RNDN);
  }
  if (n_k > 0) mpfr_set(m, e(0), MPFR_RNDN);  // the first largest score
  for (std::size_t j = 1; j < n_k; ++j)
    if (mpfr_greater_p(e(j), m)) mpfr_set(m, e(j), MPFR_RNDN);
  mpfr_set_zero(z, 1);
  for (std::size_t j = 0; j < n_k; ++j) {  // e_j = exp(e_j - m); z = sum_j e_j left to right from 0
    mpfr_sub(t, e(j), m, MPFR_RNDN);
    mpfr_exp(e(j), t, MPFR_RNDN);
    mpfr_add(z, z, e(j), MPFR_RNDN);
  }
  std::vector<hp> out(d_v);
  for (std::size_t c = 0; c < d_v; ++c) {  // (sum_j e_j v_jc left to right from 0) / z
    mpfr_set_zero(acc, 1);
    for (std::size_t j = 0; j < n_k; ++j) {
      hold_binary64(x, x_limb, v[j * d_v + c]);
      mpfr_mul(t, e(j), &x, MPFR_RNDN);
      mpfr_add(acc, acc, t, MPFR_RNDN);
    }
    mpfr_div(out[c].backend().data(), acc, z, MPFR_RNDN);
  }
  return out;
}

}  // namespace pv::ref
