/* Built-in plugin: streaming attention in float32, FlashAttention style: keys
 * are visited in blocks of 4 with an online softmax (running maximum m,
 * running normaliser l, accumulator rescaled by exp(m_old - m_new)); one
 * division at the end. Attention only. A member of the panel of correct
 * implementations (docs/check.md); PV_PANEL_BUG builds its wrong sibling
 * (plugins/mutants/panel_attn_unscaled_normaliser.c): the running normaliser
 * l is not rescaled when the maximum grows (the accumulator is). */
#include "posverify/impl.h"

#include <math.h>
#include <stdlib.h>

enum { BLOCK = 4 };

static int attention(pv_dtype t, const void *qp, const void *kp, const void *vp, int64_t n_q,
                     int64_t n_k, int64_t d, int64_t d_v, void *outp) {
  if (t != PV_F32) return 1;
  if (n_q < 0 || n_k < 1 || d < 1 || d_v < 0) return 2;
  const float *q = qp, *k = kp, *v = vp;
  float *out = outp;
  float *acc = malloc((size_t)(d_v ? d_v : 1) * sizeof *acc);
  if (!acc) return 3;
  const float scale = 1.0f / sqrtf((float)d);
  for (int64_t i = 0; i < n_q; ++i) {
    float m = -INFINITY, l = 0;
    for (int64_t c = 0; c < d_v; ++c) acc[c] = 0;
    for (int64_t j0 = 0; j0 < n_k; j0 += BLOCK) {
      const int64_t j1 = j0 + BLOCK < n_k ? j0 + BLOCK : n_k;
      float s[BLOCK], bm = -INFINITY;
      for (int64_t j = j0; j < j1; ++j) {
        float dot = 0;
        for (int64_t x = 0; x < d; ++x) dot += q[i * d + x] * k[j * d + x];
        s[j - j0] = dot * scale;
        if (s[j - j0] > bm) bm = s[j - j0];
      }
      const float m_new = bm > m ? bm : m;
      const float alpha = expf(m - m_new);  /* 0 on the first block */
#ifndef PV_PANEL_BUG
      l *= alpha;
#endif
      for (int64_t c = 0; c < d_v; ++c) acc[c] *= alpha;
      for (int64_t j = j0; j < j1; ++j) {
        const float p = expf(s[j - j0] - m_new);
        l += p;
        for (int64_t c = 0; c < d_v; ++c) acc[c] += p * v[j * d_v + c];
      }
      m = m_new;
    }
    for (int64_t c = 0; c < d_v; ++c) out[i * d_v + c] = acc[c] / l;
  }
  free(acc);
  return 0;
}

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "builtin-flash-float"
#endif
static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, attention, NULL, NULL, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
