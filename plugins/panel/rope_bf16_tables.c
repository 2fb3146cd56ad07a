/* Panel (accuracy class bfloat16): RoPE whose cos/sin tables are cast to
 * bfloat16 (as mixed-precision training code does when it casts the cached
 * cos/sin to the activations' dtype): float32 inverse frequencies (powf),
 * float32 angles, cosf/sinf rounded to bfloat16 (nearest even), the rotation
 * in float32. It declares its accuracy class in pv_impl (ABI version 2).
 * PV_PANEL_BUG (the wrong sibling): the sine table is stored negated, so it
 * turns the other way (R(-m)). */
#include "posverify/impl.h"
#include "builtin/rope_config.h"

#include <math.h>
#include <stddef.h>  /* NULL */
#include <stdint.h>
#include <string.h>

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "panel-rope-bf16-tables"
#endif

/* float32 -> bfloat16 -> float32, round to nearest even (finite inputs). */
static float to_bf16(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  b += 0x7FFFu + ((b >> 16) & 1u);
  b &= 0xFFFF0000u;
  memcpy(&x, &b, 4);
  return x;
}

static void cos_sin(const void *ctx, const pv_rope_config *cfg, int64_t row, int a, int k, float m,
                    float *state, float *c, float *s) {
  (void)ctx, (void)row, (void)state;
  const float inv_freq = 1.0f / powf((float)cfg->theta, (float)(2 * k) / (float)cfg->axes_dim[a]);
  const float ang = m * inv_freq;
  *c = to_bf16(cosf(ang));
#ifdef PV_PANEL_BUG
  *s = to_bf16(-sinf(ang));
#else
  *s = to_bf16(sinf(ang));
#endif
}

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *xp) {
  if (t != PV_F32) return 1;
  if (pv_rope_config_ok(cfg)) return pv_rope_config_ok(cfg);
  pv_rope_rotate_f32(cfg, pos, n, xp, cos_sin, NULL);
  return 0;
}

static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, NULL, rope, NULL, "bfloat16", NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
