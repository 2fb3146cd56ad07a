/* Panel: dynamic NTK RoPE as Hugging Face transformers runs it (its
 * `dynamic_rope_update` around `_compute_dynamic_ntk_parameters`,
 * paraphrased): the sequence length is taken from the call, L = 1 + the
 * largest position id; when L exceeds the longest length the module has
 * cached, the base becomes theta (S L / L0 - (S - 1))^(R/(R-2)), computed in
 * double as Python does, and the float32 inverse-frequency table is rebuilt
 * from it (1 / base^(2k/R) in float32); when a call shorter than L0 follows a
 * longer one, the original table comes back. The table is state kept from
 * call to call, as the module's buffer is (keyed here by the configuration).
 * Angles pos * inv_freq in float32, cosf and sinf, split halves
 * (rotate_half), float32 buffers only; it implements dynamic NTK only (every
 * other configuration: unsupported, as a model's dynamic-NTK rotary module
 * computes nothing else).
 *   It never reads scaling.length: it declares PV_ROPE_LENGTH_FROM_POSITIONS,
 * and posverify sends each call a row at position L - 1 (impl.h).
 * plugins/bad/rope_dynamic_undeclared.c is this kernel without the
 * declaration (rejected: the false alarm this member stands for).
 * PV_PANEL_BUG (the wrong sibling,
 * plugins/mutants/panel_rope_dynamic_from_positions_no_plus_one.c): L is the
 * largest position itself, one short of the length. */
#include "posverify/impl.h"
#include "builtin/rope_config.h"

#include <math.h>
#include <stddef.h> /* NULL */

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "panel-rope-dynamic-from-positions"
#endif

/* the module's state: the configuration it was built for, the longest length
 * cached and the inverse-frequency table of that length */
static struct {
  double theta, factor, original_length;
  int dim;
  double cached;
  float inv_freq[256];
} g;

static void build(double base, int dim) {
  for (int k = 0; k < dim / 2; ++k) g.inv_freq[k] = 1.0f / powf((float)base, (float)(2 * k) / (float)dim);
}

static void cos_sin(const void *ctx, const pv_rope_config *cfg, int64_t row, int a, int k, float m,
                    float *state, float *c, float *s) {
  (void)ctx, (void)cfg, (void)row, (void)a, (void)state;
  const float ang = m * g.inv_freq[k];
  *c = cosf(ang);
  *s = sinf(ang);
}

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *xp) {
  if (t != PV_F32) return 1;
  const pv_rope_scaling *s = &cfg->scaling;
  if (s->kind != PV_SCALE_DYNAMIC_NTK || cfg->n_axes != 1 || cfg->mrope || cfg->pairing != PV_PAIRS_HALVES ||
      cfg->axes_dim[0] != cfg->head_dim)
    return 1;
  const int dim = cfg->head_dim;
  if (dim < 4 || dim % 2 || dim / 2 > 256 || !(s->original_length >= 1) || !(s->factor >= 1)) return 2;
  if (g.dim != dim || g.theta != cfg->theta || g.factor != s->factor || g.original_length != s->original_length) {
    g.dim = dim, g.theta = cfg->theta, g.factor = s->factor, g.original_length = s->original_length;
    g.cached = s->original_length;  /* a new module: the original table */
    build(cfg->theta, dim);
  }
  double top = 0;
  for (int64_t i = 0; i < n; ++i)
    if (pos[i] > top) top = pos[i];
#ifdef PV_PANEL_BUG
  const double L = top;
#else
  const double L = top + 1;
#endif
  const double L0 = s->original_length;
  if (L > g.cached) {  /* growth */
    build(cfg->theta * pow(s->factor * L / L0 - (s->factor - 1), (double)dim / (dim - 2)), dim);
    g.cached = L;
  }
  if (L < L0 && g.cached > L0) {  /* reset */
    build(cfg->theta, dim);
    g.cached = L0;
  }
  pv_rope_rotate_f32(cfg, pos, n, xp, cos_sin, NULL);
  return 0;
}

#ifndef PV_PANEL_ROPE_CAPS
#define PV_PANEL_ROPE_CAPS (PV_ROPE_SCALED | PV_ROPE_LENGTH_FROM_POSITIONS)
#endif
static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, NULL, rope, NULL, NULL, NULL, 0, 0, 0,
                             PV_PANEL_ROPE_CAPS};
const pv_impl *posverify_impl(void) { return &impl; }
