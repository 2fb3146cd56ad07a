/* Panel: RoPE with a float32 inverse-frequency table computed by powf and a
 * float32 angle product pos * inv_freq, as the usual PyTorch code does
 * (inv_freq = 1.0 / base ** (arange(0, dim, 2).float() / dim);
 * freqs = outer(t, inv_freq), all float32).
 * PV_PANEL_BUG (the wrong sibling): the exponent 2k/dim is an integer
 * division, so every pair turns at speed 1. */
#include "posverify/impl.h"
#include "builtin/rope_config.h"

#include <math.h>
#include <stddef.h>  /* NULL */

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "panel-rope-powf-table-f32"
#endif

typedef struct table {
  float inv_freq[4][256];  /* [axis][pair] */
} table;

static void cos_sin(const void *ctx, const pv_rope_config *cfg, int64_t row, int a, int k, float m,
                    float *state, float *c, float *s) {
  (void)cfg, (void)row, (void)state;
  const float ang = m * ((const table *)ctx)->inv_freq[a][k];
  *c = cosf(ang);
  *s = sinf(ang);
}

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *xp) {
  if (t != PV_F32) return 1;
  if (pv_rope_config_ok(cfg)) return pv_rope_config_ok(cfg);
  table tb;
  for (int a = 0; a < cfg->n_axes; ++a) {
    const int dim = cfg->axes_dim[a];
    if (dim / 2 > 256) return 1;
    for (int k = 0; k < dim / 2; ++k) {
#ifdef PV_PANEL_BUG
      const float ex = (float)(2 * k / dim);
#else
      const float ex = (float)(2 * k) / (float)dim;
#endif
      tb.inv_freq[a][k] = 1.0f / powf((float)cfg->theta, ex);
    }
  }
  pv_rope_rotate_f32(cfg, pos, n, xp, cos_sin, &tb);
  return 0;
}

static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, NULL, rope, NULL, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
