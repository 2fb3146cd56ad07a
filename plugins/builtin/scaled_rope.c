/* Built-in plugin: RoPE in every configuration of ABI versions 3 and 7 (partial
 * rotary, M-RoPE, linear, NTK-aware, dynamic NTK, YaRN, llama3, a rotary
 * offset, per-pair frequency factors), written from
 * the formulas of docs/rope-configs.md: speeds and angles in double, the
 * rotated values stored in the call's dtype (float32 or float64). Its wrong
 * siblings in plugins/mutants/scaled_*.c switch on one PV_SCALED_BUG each. */
#include "posverify/impl.h"

#include <math.h>
#include <stdlib.h>

enum {
  BUG_NONE = 0,
  BUG_RAMP_SWAPPED = 1,       /* YaRN / llama3: the ramp's ends swapped (fast pairs interpolated) */
  BUG_FACTOR_ON_THETA = 2,    /* linear: theta * s instead of positions / s */
  BUG_DYNAMIC_WRONG_LEN = 3,  /* dynamic NTK: theta from the original length, not the current one */
  BUG_PARTIAL_WRONG = 4,      /* partial rotary: rotates the LAST R components */
  BUG_NO_TEMPERATURE = 5,     /* YaRN: the attention factor left out */
  BUG_PARTIAL_ALL = 6,        /* partial rotary: rotates all head_dim components */
  BUG_NO_RAMP = 7,            /* YaRN / llama3: every speed divided by s (plain interpolation) */
  BUG_LLAMA3_FACTORS_SWAPPED = 8,  /* llama3: low_freq_factor read as high_freq_factor and back */
  BUG_FACTOR_INVERTED = 9,    /* llama3: the long wavelengths' speeds multiplied by s, not divided */
  BUG_PAIRING_FLIPPED = 10,   /* the other pairing: adjacent where halves are asked, and back */
  BUG_MROPE_AXES_SWAPPED = 11, /* M-RoPE: the sections of axes 1 and 2 read each other's positions */
  BUG_FREQ_FACTORS_MULTIPLIED = 12, /* per-pair frequency factors multiply the speed instead of dividing it */
  BUG_OFFSET_IGNORED = 13     /* the rotated block at the head's start whatever rotary_offset says */
};
#ifndef PV_SCALED_BUG
#define PV_SCALED_BUG BUG_NONE
#endif
#ifndef PV_SCALED_NAME
#define PV_SCALED_NAME "builtin-scaled-rope"
#endif

static const double PI = 3.14159265358979323846;

/* speed of pair k of the ladder over R components, scaled, before any frequency factor */
static double scaled_speed(const pv_rope_config *cfg, int R, int k) {
  const pv_rope_scaling *s = &cfg->scaling;
  double theta = cfg->theta;
  const double e = (double)R / (R - 2);
  if (s->kind == PV_SCALE_NTK) theta *= pow(s->factor, e);
  if (s->kind == PV_SCALE_DYNAMIC_NTK) {
    const double L = PV_SCALED_BUG == BUG_DYNAMIC_WRONG_LEN ? s->original_length * s->factor : s->length;
    if (L > s->original_length) theta *= pow(s->factor * L / s->original_length - (s->factor - 1), e);
  }
  if (s->kind == PV_SCALE_LINEAR && PV_SCALED_BUG == BUG_FACTOR_ON_THETA) theta *= s->factor;
  const double w = pow(theta, -2.0 * k / R);
  if (s->kind == PV_SCALE_LINEAR && PV_SCALED_BUG != BUG_FACTOR_ON_THETA) return w / s->factor;
  if ((s->kind == PV_SCALE_YARN || s->kind == PV_SCALE_LLAMA3) && PV_SCALED_BUG == BUG_NO_RAMP) return w / s->factor;
  if (s->kind == PV_SCALE_YARN) {
    /* pairs below lo keep w, above hi take w / s, a linear ramp between */
    double lo = floor(R * log(s->original_length / (s->high * 2 * PI)) / (2 * log(cfg->theta)));
    double hi = ceil(R * log(s->original_length / (s->low * 2 * PI)) / (2 * log(cfg->theta)));
    if (lo < 0) lo = 0;
    if (hi > R - 1) hi = R - 1;
    if (hi == lo) hi += 0.001;
    double r = (k - lo) / (hi - lo);
    r = r < 0 ? 0 : r > 1 ? 1 : r;
    if (PV_SCALED_BUG == BUG_RAMP_SWAPPED) r = 1 - r;
    return w / s->factor * r + w * (1 - r);
  }
  if (s->kind == PV_SCALE_LLAMA3) {
    const double lambda = 2 * PI / w, L0 = s->original_length;
    if (PV_SCALED_BUG == BUG_RAMP_SWAPPED) {  /* long wavelengths kept, short ones divided */
      if (lambda < L0 / s->high) return w / s->factor;
      if (lambda > L0 / s->low) return w;
      const double g = (L0 / lambda - s->low) / (s->high - s->low);
      return g * w / s->factor + (1 - g) * w;
    }
    const int swapped = PV_SCALED_BUG == BUG_LLAMA3_FACTORS_SWAPPED;
    const double low = swapped ? s->high : s->low, high = swapped ? s->low : s->high;
    const double f = PV_SCALED_BUG == BUG_FACTOR_INVERTED ? 1 / s->factor : s->factor;
    if (lambda > L0 / low) return w / f;
    if (lambda < L0 / high) return w;
    const double g = (L0 / lambda - low) / (high - low);
    return (1 - g) * w / f + g * w;
  }
  return w;
}

/* speed of pair k: the scaled speed divided by its frequency factor (version 7:
 * llama.cpp's rope_freqs, LongRoPE's factors), when the configuration has them */
static double speed(const pv_rope_config *cfg, int R, int k) {
  const double w = scaled_speed(cfg, R, k);
  if (k >= cfg->n_freq_factors) return w;
  return PV_SCALED_BUG == BUG_FREQ_FACTORS_MULTIPLIED ? w * cfg->freq_factors[k] : w / cfg->freq_factors[k];
}

static double ld(pv_dtype t, const void *p, int64_t i) {
  return t == PV_F32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}
static void st(pv_dtype t, void *p, int64_t i, double x) {
  if (t == PV_F32) ((float *)p)[i] = (float)x;
  else ((double *)p)[i] = x;
}

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *x) {
  if (t != PV_F32 && t != PV_F64) return 1;
  if (!cfg || cfg->head_dim <= 0 || cfg->head_dim % 2 || cfg->n_axes < 1 || cfg->n_axes > 4) return 2;
  if (cfg->scaling.kind < 0 || cfg->scaling.kind > PV_SCALE_LLAMA3) return 1;
  int R = 0;
  for (int a = 0; a < cfg->n_axes; ++a) R += cfg->axes_dim[a];
  if (R > cfg->head_dim || R < 2 || R % 2) return 2;
  if (cfg->n_axes > 1 && !cfg->mrope) return 1;  /* FLUX's per-axis ladders: another plugin */
  if (cfg->rotary_offset < 0 || cfg->rotary_offset + R > cfg->head_dim) return 2;
  if (cfg->n_freq_factors && cfg->n_freq_factors != R / 2) return 2;
  int off = PV_SCALED_BUG == BUG_OFFSET_IGNORED ? 0 : cfg->rotary_offset;
  if (R < cfg->head_dim && PV_SCALED_BUG == BUG_PARTIAL_WRONG) off = cfg->head_dim - R;
  if (R < cfg->head_dim && PV_SCALED_BUG == BUG_PARTIAL_ALL) R = cfg->head_dim;
  const pv_rope_scaling *s = &cfg->scaling;
  double a_f = 1;
  if (s->kind == PV_SCALE_YARN && PV_SCALED_BUG != BUG_NO_TEMPERATURE)
    a_f = s->attention_factor > 0 ? s->attention_factor : s->factor > 1 ? 0.1 * log(s->factor) + 1 : 1;
  for (int64_t r = 0; r < n; ++r) {
    int axis = 0, end = cfg->axes_dim[0];
    for (int k = 0; k < R / 2; ++k) {
      while (cfg->mrope && 2 * k >= end && axis + 1 < cfg->n_axes) end += cfg->axes_dim[++axis];
      int pa = axis;
      if (PV_SCALED_BUG == BUG_MROPE_AXES_SWAPPED && cfg->n_axes >= 3 && (axis == 1 || axis == 2)) pa = 3 - axis;
      const double ang = pos[r * cfg->n_axes + pa] * speed(cfg, R, k);
      const double c = cos(ang), sn = sin(ang);
      int ia, ib;
      if ((cfg->pairing == PV_PAIRS_ADJACENT) != (PV_SCALED_BUG == BUG_PAIRING_FLIPPED)) {
        ia = off + 2 * k;
        ib = ia + 1;
      } else {
        ia = off + k;
        ib = off + k + R / 2;
      }
      const int64_t b = r * cfg->head_dim;
      const double xa = ld(t, x, b + ia), xb = ld(t, x, b + ib);
      st(t, x, b + ia, a_f * (xa * c - xb * sn));
      st(t, x, b + ib, a_f * (xa * sn + xb * c));
    }
  }
  return 0;
}

static const pv_impl impl = {PV_ABI_VERSION, PV_SCALED_NAME, NULL, rope, NULL, NULL, NULL, 0, 0, 0,
                              PV_ROPE_PARTIAL | PV_ROPE_MROPE | PV_ROPE_SCALED | PV_ROPE_ROTARY_OFFSET |
                                  PV_ROPE_FREQ_FACTORS};
const pv_impl *posverify_impl(void) { return &impl; }
