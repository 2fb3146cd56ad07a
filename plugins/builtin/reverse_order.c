/* Built-in plugin, correct but different: the same mathematics with other
 * rounding choices, so that posverify must not flag it. Queries are scaled
 * before the dot products, every sum runs in reverse order, the softmax is
 * normalised by multiplying with the reciprocal; RoPE and sinusoid speeds come
 * from exp(-(2k/dim) log theta) and the rotation uses fused multiply-adds.
 * float32 and float64. */
#include "posverify/impl.h"
#include "rope_config.h"

#include <stdlib.h>
#include <tgmath.h>

#define ATTENTION_BODY(T)                                                        \
  const T *q = qp, *k = kp, *v = vp;                                            \
  T *out = outp;                                                                 \
  T *e = malloc((size_t)n_k * sizeof *e), *qs = malloc((size_t)d * sizeof *qs);  \
  if (!e || !qs) { free(e); free(qs); return 3; }                                \
  const T scale = (T)1 / sqrt((T)d);                                             \
  for (int64_t i = 0; i < n_q; ++i) {                                            \
    for (int64_t l = 0; l < d; ++l) qs[l] = q[i * d + l] * scale;               \
    T m = -INFINITY, z = 0;                                                      \
    for (int64_t j = n_k - 1; j >= 0; --j) {                                     \
      T s = 0;                                                                   \
      for (int64_t l = d - 1; l >= 0; --l) s += qs[l] * k[j * d + l];           \
      e[j] = s;                                                                  \
      if (s > m) m = s;                                                          \
    }                                                                            \
    for (int64_t j = n_k - 1; j >= 0; --j) z += (e[j] = exp(e[j] - m));         \
    const T rz = (T)1 / z;                                                       \
    for (int64_t c = 0; c < d_v; ++c) {                                          \
      T acc = 0;                                                                 \
      for (int64_t j = n_k - 1; j >= 0; --j) acc += e[j] * v[j * d_v + c];      \
      out[i * d_v + c] = acc * rz;                                               \
    }                                                                            \
  }                                                                              \
  free(e);                                                                       \
  free(qs);                                                                      \
  return 0;

static int attention(pv_dtype t, const void *qp, const void *kp, const void *vp, int64_t n_q,
                     int64_t n_k, int64_t d, int64_t d_v, void *outp) {
  if (t != PV_F32 && t != PV_F64) return 1; /* no 16-bit dtypes (ABI 2) */
  if (n_q < 0 || n_k < 1 || d < 1 || d_v < 0) return 2;
  if (t == PV_F32) {
    ATTENTION_BODY(float)
  } else {
    ATTENTION_BODY(double)
  }
}

#define ROPE_BODY(T)                                                             \
  T *x = xp;                                                                     \
  const T lt = log((T)cfg->theta);                                               \
  for (int64_t r = 0; r < n; ++r) {                                              \
    int off = 0;                                                                 \
    for (int a = 0; a < cfg->n_axes; ++a) {                                      \
      const int dim = cfg->axes_dim[a];                                          \
      const T m = (T)pos[r * cfg->n_axes + a];                                   \
      for (int k = 0; k < dim / 2; ++k) {                                        \
        int ia, ib;                                                              \
        pv_pair(cfg->pairing, off, dim, k, &ia, &ib);                            \
        const T w = exp(-((T)(2 * k) / (T)dim) * lt);                            \
        const T ang = m * w, c = cos(ang), s = sin(ang);                         \
        T *row = x + r * cfg->head_dim;                                          \
        const T xa = row[ia], xb = row[ib];                                      \
        row[ia] = fma(xa, c, -(xb * s));                                         \
        row[ib] = fma(xb, c, xa * s);                                            \
      }                                                                          \
      off += dim;                                                                \
    }                                                                            \
  }                                                                              \
  return 0;

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *xp) {
  if (t != PV_F32 && t != PV_F64) return 1; /* no 16-bit dtypes (ABI 2) */
  if (pv_rope_config_ok(cfg)) return pv_rope_config_ok(cfg);
  if (t == PV_F32) {
    ROPE_BODY(float)
  } else {
    ROPE_BODY(double)
  }
}

#define SINUSOID_BODY(T)                                                         \
  T *out = outp;                                                                 \
  for (int64_t r = 0; r < n; ++r)                                                \
    for (int64_t i = d / 2 - 1; i >= 0; --i) {                                   \
      const T w = (T)1 / pow((T)base, (T)(2 * i) / (T)d);                        \
      const T ang = (T)pos[r] * w;                                               \
      out[r * d + 2 * i] = sin(ang);                                             \
      out[r * d + 2 * i + 1] = cos(ang);                                         \
    }                                                                            \
  return 0;

static int sinusoid(pv_dtype t, int64_t d, double base, const double *pos, int64_t n, void *outp) {
  if (t != PV_F32 && t != PV_F64) return 1; /* no 16-bit dtypes (ABI 2) */
  if (d <= 0 || d % 2) return 2;
  if (t == PV_F32) {
    SINUSOID_BODY(float)
  } else {
    SINUSOID_BODY(double)
  }
}

static const pv_impl impl = {PV_ABI_VERSION, "builtin-reverse-order", attention, rope, sinusoid, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
