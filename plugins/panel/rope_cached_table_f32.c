/* Panel: RoPE from cos/sin tables cached once per position and pair, as
 * Hugging Face's rotary embedding caches cos_cached/sin_cached: the float32
 * inverse frequencies (powf), the float32 angle t * inv_freq, cosf/sinf
 * stored as float32; the rotation looks the tables up by position. The table
 * covers the integer positions of the call (positions are integers here).
 * PV_PANEL_BUG (the wrong sibling): the cache is 4096 positions long and a
 * later position reads its last row (max_position_embeddings too small). */
#include "posverify/impl.h"
#include "builtin/rope_config.h"

#include <math.h>
#include <stdlib.h>

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "panel-rope-cached-table-f32"
#endif

typedef struct cache {
  const float *cos_cache, *sin_cache;  /* [(row * n_axes + axis) * head_dim/2 + pair] */
} cache;

static void look_up(const void *ctx, const pv_rope_config *cfg, int64_t row, int a, int k, float m,
                    float *state, float *c, float *s) {
  (void)m, (void)state;
  const cache *cc = ctx;
  const int64_t at = (row * cfg->n_axes + a) * (cfg->head_dim / 2) + k;
  *c = cc->cos_cache[at];
  *s = cc->sin_cache[at];
}

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *xp) {
  if (t != PV_F32) return 1;
  if (pv_rope_config_ok(cfg)) return pv_rope_config_ok(cfg);
  const int na = cfg->n_axes, half = cfg->head_dim / 2;
  /* the table: one row of (cos, sin) per (row, axis) position */
  float *cos_cache = malloc((size_t)(n * na * half + 1) * sizeof *cos_cache);
  float *sin_cache = malloc((size_t)(n * na * half + 1) * sizeof *sin_cache);
  int rc = cos_cache && sin_cache ? 0 : 3;
  for (int64_t r = 0; r < n && !rc; ++r)
    for (int a = 0; a < na && !rc; ++a) {
      const int dim = cfg->axes_dim[a];
      double p = pos[r * na + a];
      if (p != floor(p)) rc = 1; /* integer positions only, like a table */
#ifdef PV_PANEL_BUG
      if (p > 4095) p = 4095;
#endif
      const float tpos = (float)p;
      for (int k = 0; k < dim / 2 && !rc; ++k) {
        const float inv_freq = 1.0f / powf((float)cfg->theta, (float)(2 * k) / (float)dim);
        const float ang = tpos * inv_freq;
        cos_cache[(r * na + a) * half + k] = cosf(ang);
        sin_cache[(r * na + a) * half + k] = sinf(ang);
      }
    }
  if (!rc) {
    const cache cc = {cos_cache, sin_cache};
    pv_rope_rotate_f32(cfg, pos, n, xp, look_up, &cc);
  }
  free(cos_cache);
  free(sin_cache);
  return rc;
}

static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, NULL, rope, NULL, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
