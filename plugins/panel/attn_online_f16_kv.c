/* Panel (accuracy class float16): streaming attention over a float16 K/V
 * cache, as the CPU flash-attention path of a C tensor library computes it
 * (one pass over the keys per query row, no score buffer): k and v rounded to
 * _Float16 on entry; per key, the score in float32; when it raises the running
 * maximum M, the accumulated sum of v and the sum of weights are rescaled by
 * exp(M_old - M_new); the weighted sum of v and the sum of weights are kept in
 * float32; the output is their quotient. The interface is float32; it
 * declares its accuracy class in pv_impl.
 * PV_PANEL_BUG (the wrong sibling): the weighted sum of v is kept in
 * _Float16, as that library's path does when V is float16 even though its
 * caller asked for float32 precision (a float16 sum of ones stops growing at
 * 2048: 4096 tied keys with v = 1 give 0.5). Mean-zero values keep the sum
 * small and hide it; all-positive values at long n_k show it. */
#include "posverify/impl.h"

#include <math.h>
#include <stddef.h> /* NULL */
#include <stdlib.h>

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "panel-attn-online-f16-kv"
#endif

#ifdef PV_PANEL_BUG
typedef _Float16 acc_t;
#else
typedef float acc_t;
#endif

static int attention(pv_dtype t, const void *qp, const void *kp, const void *vp, int64_t n_q,
                     int64_t n_k, int64_t d, int64_t d_v, void *outp) {
  if (t != PV_F32) return 1;
  if (n_q < 0 || n_k < 1 || d < 1 || d_v < 0) return 2;
  const float *q = qp, *k32 = kp, *v32 = vp;
  float *out = outp;
  _Float16 *k = malloc((size_t)(n_k * d) * sizeof *k), *v = malloc((size_t)(n_k * d_v + 1) * sizeof *v);
  acc_t *acc = malloc((size_t)(d_v + 1) * sizeof *acc);
  if (!k || !v || !acc) {
    free(k);
    free(v);
    free(acc);
    return 3;
  }
  for (int64_t i = 0; i < n_k * d; ++i) k[i] = (_Float16)k32[i];
  for (int64_t i = 0; i < n_k * d_v; ++i) v[i] = (_Float16)v32[i];
  const float scale = 1.0f / sqrtf((float)d);
  for (int64_t i = 0; i < n_q; ++i) {
    float m = -INFINITY, z = 0;
    for (int64_t c = 0; c < d_v; ++c) acc[c] = 0;
    for (int64_t j = 0; j < n_k; ++j) {
      float s = 0;
      for (int64_t l = 0; l < d; ++l) s += q[i * d + l] * (float)k[j * d + l];
      s *= scale;
      float w = 1.0f; /* this key's weight exp(s - m) */
      if (s > m) {    /* a new maximum: what was summed is rescaled */
        const float r = m == -INFINITY ? 0.0f : expf(m - s);
        m = s;
        for (int64_t c = 0; c < d_v; ++c) acc[c] = (acc_t)(acc[c] * r);
        z *= r;
      } else {
        w = expf(s - m);
      }
      for (int64_t c = 0; c < d_v; ++c) acc[c] = (acc_t)(acc[c] + w * (float)v[j * d_v + c]);
      z += w;
    }
    for (int64_t c = 0; c < d_v; ++c) out[i * d_v + c] = (float)acc[c] / z;
  }
  free(k);
  free(v);
  free(acc);
  return 0;
}

static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, attention, NULL, NULL, "float16", NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
