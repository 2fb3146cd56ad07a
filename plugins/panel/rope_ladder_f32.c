/* Panel: RoPE in float32 with the speeds built by repeated multiplication
 * (w_0 = 1, w_k = w_{k-1} * theta^(-2/dim), every product in float32) and
 * float32 angles m * w_k, as kernels of C tensor libraries do (ggml's
 * rope: theta_scale = powf(freq_base, -2.0f/n_dims), theta *= theta_scale).
 * PV_PANEL_BUG (the wrong sibling, plugins/mutants/panel_rope_ladder_*.c):
 * the ladder is advanced before its first use, so pair k turns at w_{k+1}. */
#include "posverify/impl.h"
#include "../builtin/rope_config.h"

#include <math.h>
#include <stddef.h>  /* NULL */

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "panel-rope-ladder-f32"
#endif

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *xp) {
  if (t != PV_F32) return 1;
  if (pv_rope_config_ok(cfg)) return 2;
  float *x = xp;
  for (int64_t r = 0; r < n; ++r) {
    int off = 0;
    float *row = x + r * cfg->head_dim;
    for (int a = 0; a < cfg->n_axes; ++a) {
      const int dim = cfg->axes_dim[a];
      const float m = (float)pos[r * cfg->n_axes + a];
      const float ratio = powf((float)cfg->theta, -2.0f / (float)dim);
      float w = 1.0f;
#ifdef PV_PANEL_BUG
      w *= ratio;
#endif
      for (int k = 0; k < dim / 2; ++k) {
        int ia, ib;
        pv_pair(cfg->pairing, off, dim, k, &ia, &ib);
        const float ang = m * w, c = cosf(ang), s = sinf(ang);
        const float xa = row[ia], xb = row[ib];
        row[ia] = xa * c - xb * s;
        row[ib] = xa * s + xb * c;
        w *= ratio;
      }
      off += dim;
    }
  }
  return 0;
}

static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, NULL, rope, NULL, NULL};
const pv_impl *posverify_impl(void) { return &impl; }
