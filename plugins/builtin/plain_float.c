/* Built-in plugin: the textbook formulas in single precision (float32 only),
 * RoPE and the sinusoid with float angles (speeds powf(theta, -2k/dim), angle
 * (float)m * w), both pair conventions and any number of axes. */
#include "posverify/impl.h"
#include "rope_config.h"

#include <math.h>
#include <stdlib.h>

static int attention(pv_dtype t, const void *qp, const void *kp, const void *vp, int64_t n_q,
                     int64_t n_k, int64_t d, int64_t d_v, void *outp) {
  if (t != PV_F32) return 1;
  if (n_q < 0 || n_k < 1 || d < 1 || d_v < 0) return 2;
  const float *q = qp, *k = kp, *v = vp;
  float *out = outp;
  float *e = malloc((size_t)n_k * sizeof *e);
  if (!e) return 3;
  const float scale = 1.0f / sqrtf((float)d);
  for (int64_t i = 0; i < n_q; ++i) {
    float m = -INFINITY, z = 0;
    for (int64_t j = 0; j < n_k; ++j) {
      float s = 0;
      for (int64_t l = 0; l < d; ++l) s += q[i * d + l] * k[j * d + l];
      e[j] = s * scale;
      if (e[j] > m) m = e[j];
    }
    for (int64_t j = 0; j < n_k; ++j) z += (e[j] = expf(e[j] - m));
    for (int64_t c = 0; c < d_v; ++c) {
      float acc = 0;
      for (int64_t j = 0; j < n_k; ++j) acc += e[j] * v[j * d_v + c];
      out[i * d_v + c] = acc / z;
    }
  }
  free(e);
  return 0;
}

/* speed powf(theta, -2k/dim), angle m * w, cosf/sinf, all in float32 */
static void cos_sin(const void *ctx, const pv_rope_config *cfg, int64_t row, int a, int k, float m,
                    float *state, float *c, float *s) {
  (void)ctx, (void)row, (void)state;
  const int dim = cfg->axes_dim[a];
  const float w = powf((float)cfg->theta, -2.0f * (float)k / (float)dim), ang = m * w;
  *c = cosf(ang);
  *s = sinf(ang);
}

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *xp) {
  if (t != PV_F32) return 1;
  if (pv_rope_config_ok(cfg)) return pv_rope_config_ok(cfg);
  pv_rope_rotate_f32(cfg, pos, n, xp, cos_sin, NULL);
  return 0;
}

static int sinusoid(pv_dtype t, int64_t d, double base, const double *pos, int64_t n, void *outp) {
  if (t != PV_F32) return 1;
  if (d <= 0 || d % 2) return 2;
  float *out = outp;
  for (int64_t r = 0; r < n; ++r)
    for (int64_t i = 0; i < d / 2; ++i) {
      const float ang = (float)pos[r] * powf((float)base, -2.0f * (float)i / (float)d);
      out[r * d + 2 * i] = sinf(ang);
      out[r * d + 2 * i + 1] = cosf(ang);
    }
  return 0;
}

static const pv_impl impl = {PV_ABI_VERSION, "builtin-plain-float", attention, rope, sinusoid, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
