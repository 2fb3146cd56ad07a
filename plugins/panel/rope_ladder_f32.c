/* Panel: RoPE in float32 with the speeds built by repeated multiplication
 * (w_0 = 1, w_k = w_{k-1} * theta^(-2/dim), every product in float32) and
 * float32 angles m * w_k: a ladder of SPEEDS, multiplied by the position
 * once (one position-dependent rounding per angle). ggml's rope ladders the
 * ANGLE itself from the position: that is rope_angle_ladder.c.
 * PV_PANEL_BUG (the wrong sibling, plugins/mutants/panel_rope_ladder_*.c):
 * the ladder is advanced before its first use, so pair k turns at w_{k+1}. */
#include "posverify/impl.h"
#include "builtin/rope_config.h"

#include <math.h>
#include <stddef.h>  /* NULL */

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "panel-rope-ladder-f32"
#endif

/* *w is the ladder: 1 at k = 0, multiplied by the ratio after each pair */
static void cos_sin(const void *ctx, const pv_rope_config *cfg, int64_t row, int a, int k, float m,
                    float *w, float *c, float *s) {
  (void)ctx, (void)row;
  const float ratio = powf((float)cfg->theta, -2.0f / (float)cfg->axes_dim[a]);
#ifdef PV_PANEL_BUG
  if (k == 0) *w *= ratio;
#else
  (void)k;
#endif
  const float ang = m * *w;
  *c = cosf(ang);
  *s = sinf(ang);
  *w *= ratio;
}

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *xp) {
  if (t != PV_F32) return 1;
  if (pv_rope_config_ok(cfg)) return pv_rope_config_ok(cfg);
  pv_rope_rotate_f32(cfg, pos, n, xp, cos_sin, NULL);
  return 0;
}

static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, NULL, rope, NULL, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
