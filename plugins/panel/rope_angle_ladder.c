/* Panel: RoPE as the CPU rope of the C tensor library ggml computes it
 * (ggml-cpu's rope cache: the angle of pair 0 is the position itself, each
 * next pair's angle is the previous one times r = powf(base, -2/n_dims),
 * then scaled by freq_scale and passed to cosf/sinf; paraphrased from the
 * description in ggml's ops.cpp, not copied). So the ANGLE is the ladder,
 * theta_0 = p, theta_k = theta_{k-1} * r, every product rounded in float32:
 * the angle of pair k carries k roundings that depend on the position
 * (rope_model.h, "angle ladder"), unlike a ladder of speeds multiplied by
 * the position once (rope_ladder_f32.c).
 *   Buffers float32, float16 or bfloat16: each value read into float32,
 * rotated in float32, rounded back once (ggml's float16 rope does the same);
 * float64 is not supported. Partial rotary (n_dims = R < head_dim): the
 * components past R are not touched (they come back as sent). M-RoPE: one
 * index k over the R rotated components, every section's angle ladder
 * starting from its own axis's position, all ladders advancing together;
 * FLUX-style axes (version 1): one ladder per axis, restarted from that
 * axis's position. Linear scaling: freq_scale = 1/s times each angle; NTK:
 * the base theta s^(R/(R-2)) (the other scalings: unsupported). Frequency
 * factors (ggml's rope_freqs): pair k's angle divided by its factor in
 * float32 before freq_scale, one more rounding of the angle; a rotary offset:
 * the rotated block starts there.
 * PV_PANEL_BUG (the wrong sibling, plugins/mutants/panel_rope_angle_ladder_*.c):
 * the ladder is advanced before its first use, so pair k turns at p r^(k+1). */
#include "posverify/impl.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "panel-rope-angle-ladder"
#endif

static float bf16_to_f32(uint16_t h) {
  const uint32_t b = (uint32_t)h << 16;
  float f;
  memcpy(&f, &b, 4);
  return f;
}

/* round to nearest even (finite values) */
static uint16_t f32_to_bf16(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  b += 0x7FFFu + ((b >> 16) & 1u);
  return (uint16_t)(b >> 16);
}

static float ld(pv_dtype t, const void *x, int64_t i) {
  if (t == PV_F16) return (float)((const _Float16 *)x)[i];
  if (t == PV_BF16) return bf16_to_f32(((const uint16_t *)x)[i]);
  return ((const float *)x)[i];
}

static void st(pv_dtype t, void *x, int64_t i, float v) {
  if (t == PV_F16) ((_Float16 *)x)[i] = (_Float16)v;
  else if (t == PV_BF16) ((uint16_t *)x)[i] = f32_to_bf16(v);
  else ((float *)x)[i] = v;
}

/* rotates pair k of the block [off, off + dim) of row b by the angle ang */
static void turn(pv_dtype t, void *x, int64_t b, pv_pairing p, int off, int dim, int k, float ang) {
  const int64_t ia = b + off + (p == PV_PAIRS_ADJACENT ? 2 * k : k);
  const int64_t ib = p == PV_PAIRS_ADJACENT ? ia + 1 : ia + dim / 2;
  const float c = cosf(ang), s = sinf(ang), x0 = ld(t, x, ia), x1 = ld(t, x, ib);
  st(t, x, ia, x0 * c - x1 * s);
  st(t, x, ib, x0 * s + x1 * c);
}

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *x) {
  if (t != PV_F32 && t != PV_F16 && t != PV_BF16) return 1;
  if (!cfg || cfg->head_dim <= 0 || cfg->head_dim % 2 || cfg->n_axes < 1 || cfg->n_axes > 4) return 2;
  const int v3 = pv_rope_config_version(cfg) >= 3, na = cfg->n_axes;
  int R = 0;
  for (int a = 0; a < na; ++a) {
    if (cfg->axes_dim[a] <= 0 || cfg->axes_dim[a] % 2) return 2;
    R += cfg->axes_dim[a];
  }
  if (R > cfg->head_dim || cfg->rotary_offset < 0 || cfg->rotary_offset + R > cfg->head_dim) return 2;
  if (cfg->n_freq_factors && cfg->n_freq_factors != R / 2) return 2;
  float base = (float)cfg->theta, freq_scale = 1.0f;
  if (v3) {
    if (na > 1 && !cfg->mrope) return 1;  /* per-axis ladders with scaling: not what ggml does */
    if (cfg->scaling.kind == PV_SCALE_LINEAR) freq_scale = 1.0f / (float)cfg->scaling.factor;
    else if (cfg->scaling.kind == PV_SCALE_NTK)
      base = (float)(cfg->theta * pow(cfg->scaling.factor, (double)R / (R - 2)));
    else if (cfg->scaling.kind != PV_SCALE_NONE) return 1;
  }
  for (int64_t r = 0; r < n; ++r) {
    const int64_t b = r * cfg->head_dim;
    float th[4];  /* the angle ladder of each axis, from that axis's position */
    for (int a = 0; a < na; ++a) th[a] = (float)pos[r * na + a];
    if (v3 || na == 1) {  /* one index over the R rotated components */
      const float ratio = powf(base, -2.0f / (float)R);
      int axis = 0, end = cfg->axes_dim[0];
      for (int k = 0; k < R / 2; ++k) {
        while (2 * k >= end && axis + 1 < na) end += cfg->axes_dim[++axis];
#ifdef PV_PANEL_BUG
        if (k == 0)
          for (int a = 0; a < na; ++a) th[a] *= ratio;
#endif
        const float ang = k < cfg->n_freq_factors ? th[axis] / (float)cfg->freq_factors[k] : th[axis];
        turn(t, x, b, cfg->pairing, cfg->rotary_offset, R, k, freq_scale * ang);
        for (int a = 0; a < na; ++a) th[a] *= ratio;
      }
    } else {  /* FLUX-style axes: a ladder per axis block */
      int off = 0;
      for (int a = 0; a < na; ++a) {
        const int dim = cfg->axes_dim[a];
        const float ratio = powf(base, -2.0f / (float)dim);
#ifdef PV_PANEL_BUG
        th[a] *= ratio;
#endif
        for (int k = 0; k < dim / 2; ++k) {
          turn(t, x, b, cfg->pairing, off, dim, k, th[a]);
          th[a] *= ratio;
        }
        off += dim;
      }
    }
  }
  return 0;
}

static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, NULL, rope, NULL, NULL, NULL, 0, 0,
                              PV_DTYPE_BIT(PV_F16) | PV_DTYPE_BIT(PV_BF16),
                              PV_ROPE_PARTIAL | PV_ROPE_MROPE | PV_ROPE_SCALED | PV_ROPE_ROTARY_OFFSET |
                                  PV_ROPE_FREQ_FACTORS};
const pv_impl *posverify_impl(void) { return &impl; }
