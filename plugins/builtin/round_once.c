/* Built-in plugin, correct but different: computes in a wider type and rounds
 * once at the end -- float32 through double, float64 through long double. */
#include "posverify/impl.h"
#include "rope_config.h"

#include <stdlib.h>
#include <tgmath.h>

#define ATTENTION_BODY(T, W)                                                     \
  const T *q = qp, *k = kp, *v = vp;                                            \
  T *out = outp;                                                                 \
  W *e = malloc((size_t)n_k * sizeof *e);                                        \
  if (!e) return 3;                                                              \
  const W scale = (W)1 / sqrt((W)d);                                             \
  for (int64_t i = 0; i < n_q; ++i) {                                            \
    W m = -INFINITY, z = 0;                                                      \
    for (int64_t j = 0; j < n_k; ++j) {                                          \
      W s = 0;                                                                   \
      for (int64_t l = 0; l < d; ++l) s += (W)q[i * d + l] * (W)k[j * d + l];   \
      e[j] = s * scale;                                                          \
      if (e[j] > m) m = e[j];                                                    \
    }                                                                            \
    for (int64_t j = 0; j < n_k; ++j) z += (e[j] = exp(e[j] - m));              \
    for (int64_t c = 0; c < d_v; ++c) {                                          \
      W acc = 0;                                                                 \
      for (int64_t j = 0; j < n_k; ++j) acc += e[j] * (W)v[j * d_v + c];        \
      out[i * d_v + c] = (T)(acc / z);                                           \
    }                                                                            \
  }                                                                              \
  free(e);                                                                       \
  return 0;

static int attention(pv_dtype t, const void *qp, const void *kp, const void *vp, int64_t n_q,
                     int64_t n_k, int64_t d, int64_t d_v, void *outp) {
  if (t != PV_F32 && t != PV_F64) return 1; /* no 16-bit dtypes (ABI 2) */
  if (n_q < 0 || n_k < 1 || d < 1 || d_v < 0) return 2;
  if (t == PV_F32) {
    ATTENTION_BODY(float, double)
  } else {
    ATTENTION_BODY(double, long double)
  }
}

#define ROPE_BODY(T, W)                                                          \
  T *x = xp;                                                                     \
  for (int64_t r = 0; r < n; ++r) {                                              \
    int off = 0;                                                                 \
    for (int a = 0; a < cfg->n_axes; ++a) {                                      \
      const int dim = cfg->axes_dim[a];                                          \
      for (int k = 0; k < dim / 2; ++k) {                                        \
        int ia, ib;                                                              \
        pv_pair(cfg->pairing, off, dim, k, &ia, &ib);                            \
        const W w = pow((W)cfg->theta, -(W)(2 * k) / (W)dim);                    \
        const W ang = (W)pos[r * cfg->n_axes + a] * w, c = cos(ang), s = sin(ang); \
        T *row = x + r * cfg->head_dim;                                          \
        const W xa = row[ia], xb = row[ib];                                      \
        row[ia] = (T)(xa * c - xb * s);                                          \
        row[ib] = (T)(xa * s + xb * c);                                          \
      }                                                                          \
      off += dim;                                                                \
    }                                                                            \
  }                                                                              \
  return 0;

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *xp) {
  if (t != PV_F32 && t != PV_F64) return 1; /* no 16-bit dtypes (ABI 2) */
  if (pv_rope_config_ok(cfg)) return pv_rope_config_ok(cfg);
  if (t == PV_F32) {
    ROPE_BODY(float, double)
  } else {
    ROPE_BODY(double, long double)
  }
}

#define SINUSOID_BODY(T, W)                                                      \
  T *out = outp;                                                                 \
  for (int64_t r = 0; r < n; ++r)                                                \
    for (int64_t i = 0; i < d / 2; ++i) {                                        \
      const W ang = (W)pos[r] * pow((W)base, -(W)(2 * i) / (W)d);                \
      out[r * d + 2 * i] = (T)sin(ang);                                          \
      out[r * d + 2 * i + 1] = (T)cos(ang);                                      \
    }                                                                            \
  return 0;

static int sinusoid(pv_dtype t, int64_t d, double base, const double *pos, int64_t n, void *outp) {
  if (t != PV_F32 && t != PV_F64) return 1; /* no 16-bit dtypes (ABI 2) */
  if (d <= 0 || d % 2) return 2;
  if (t == PV_F32) {
    SINUSOID_BODY(float, double)
  } else {
    SINUSOID_BODY(double, long double)
  }
}

static const pv_impl impl = {PV_ABI_VERSION, "builtin-round-once", attention, rope, sinusoid, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
