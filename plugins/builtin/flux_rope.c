/* Built-in plugin: FLUX.1-style multi-axis RoPE as in the reference model
 * code (Black Forest Labs, flux/math.py, paraphrased): per axis the speeds
 * 1 / theta^(2k/dim) and the angles pos * w in float64, cos and sin rounded to
 * the working type, then the 2 x 2 rotation of adjacent pairs in the working
 * type. Adjacent pairs only (split halves return 1). RoPE only. */
#include "posverify/impl.h"
#include "rope_config.h"

#include <math.h>
#include <stddef.h>

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *xp) {
  if (t != PV_F32 && t != PV_F64) return 1; /* no 16-bit dtypes (ABI 2) */
  if (pv_rope_config_ok(cfg)) return pv_rope_config_ok(cfg);
  if (cfg->pairing != PV_PAIRS_ADJACENT) return 1;
  for (int64_t r = 0; r < n; ++r) {
    int off = 0;
    for (int a = 0; a < cfg->n_axes; ++a) {
      const int dim = cfg->axes_dim[a];
      for (int k = 0; k < dim / 2; ++k) {
        const double omega = 1.0 / pow(cfg->theta, (double)(2 * k) / (double)dim);
        const double ang = pos[r * cfg->n_axes + a] * omega;
        const int ia = off + 2 * k, ib = ia + 1;
        if (t == PV_F32) {
          float *row = (float *)xp + r * cfg->head_dim;
          const float c = (float)cos(ang), s = (float)sin(ang), xa = row[ia], xb = row[ib];
          row[ia] = c * xa - s * xb;
          row[ib] = s * xa + c * xb;
        } else {
          double *row = (double *)xp + r * cfg->head_dim;
          const double c = cos(ang), s = sin(ang), xa = row[ia], xb = row[ib];
          row[ia] = c * xa - s * xb;
          row[ib] = s * xa + c * xb;
        }
      }
      off += dim;
    }
  }
  return 0;
}

static const pv_impl impl = {PV_ABI_VERSION, "builtin-flux-rope", NULL, rope, NULL, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
