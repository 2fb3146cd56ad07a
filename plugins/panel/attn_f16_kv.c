/* Panel (accuracy class float16): attention whose interface is float32 but
 * whose K/V cache is stored in float16, as inference engines keep it (and
 * FlashAttention's fp16 path): k and v are rounded to _Float16 on entry, the
 * scores, the softmax and the weighted sum are accumulated in float32.
 * It declares its accuracy class in pv_impl (ABI version 2).
 * PV_PANEL_BUG (the wrong sibling): the scores are scaled by 1/sqrt(d_v)
 * instead of 1/sqrt(d). */
#include "posverify/impl.h"

#include <math.h>
#include <stddef.h>  /* NULL */
#include <stdlib.h>

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "panel-attn-f16-kv"
#endif

static int attention(pv_dtype t, const void *qp, const void *kp, const void *vp, int64_t n_q,
                     int64_t n_k, int64_t d, int64_t d_v, void *outp) {
  if (t != PV_F32) return 1;
  if (n_q < 0 || n_k < 1 || d < 1 || d_v < 0) return 2;
  const float *q = qp, *k32 = kp, *v32 = vp;
  float *out = outp;
  _Float16 *k = malloc((size_t)(n_k * d) * sizeof *k), *v = malloc((size_t)(n_k * d_v + 1) * sizeof *v);
  float *e = malloc((size_t)n_k * sizeof *e);
  if (!k || !v || !e) {
    free(k);
    free(v);
    free(e);
    return 3;
  }
  for (int64_t i = 0; i < n_k * d; ++i) k[i] = (_Float16)k32[i];
  for (int64_t i = 0; i < n_k * d_v; ++i) v[i] = (_Float16)v32[i];
#ifdef PV_PANEL_BUG
  const float scale = 1.0f / sqrtf((float)(d_v ? d_v : 1));
#else
  const float scale = 1.0f / sqrtf((float)d);
#endif
  for (int64_t i = 0; i < n_q; ++i) {
    float m = -INFINITY, z = 0;
    for (int64_t j = 0; j < n_k; ++j) {
      float s = 0;
      for (int64_t l = 0; l < d; ++l) s += q[i * d + l] * (float)k[j * d + l];
      e[j] = s * scale;
      if (e[j] > m) m = e[j];
    }
    for (int64_t j = 0; j < n_k; ++j) z += (e[j] = expf(e[j] - m));
    for (int64_t c = 0; c < d_v; ++c) {
      float acc = 0;
      for (int64_t j = 0; j < n_k; ++j) acc += e[j] * (float)v[j * d_v + c];
      out[i * d_v + c] = acc / z;
    }
  }
  free(k);
  free(v);
  free(e);
  return 0;
}

static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, attention, NULL, NULL, "float16", NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
