/* A plugin built against version 2 of the ABI, before partial rotary, M-RoPE
 * and scaled speeds existed (not bad: a loader test). It reads only the
 * fields of version 2 and turns every axis by its plain ladder
 * theta^(-2k/axes_dim[a]), whatever else the configuration says. posverify
 * must never call it with a configuration of version 3 (those laws are
 * reported unsupported, never failed) and checks it as before on the plain
 * ones. */
#include "posverify/impl.h"

#include <math.h>
#include <stddef.h>

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *x) {
  if (t != PV_F32 && t != PV_F64) return 1;
  for (int64_t r = 0; r < n; ++r) {
    int off = 0;
    for (int a = 0; a < cfg->n_axes; ++a) {
      const int dim = cfg->axes_dim[a];
      for (int k = 0; k < dim / 2; ++k) {
        const double ang = pos[r * cfg->n_axes + a] * pow(cfg->theta, -2.0 * k / dim);
        const int ia = cfg->pairing == PV_PAIRS_ADJACENT ? off + 2 * k : off + k;
        const int ib = cfg->pairing == PV_PAIRS_ADJACENT ? ia + 1 : off + k + dim / 2;
        const int64_t b = r * cfg->head_dim;
        if (t == PV_F32) {
          float *v = x;
          const double xa = v[b + ia], xb = v[b + ib];
          v[b + ia] = (float)(xa * cos(ang) - xb * sin(ang));
          v[b + ib] = (float)(xa * sin(ang) + xb * cos(ang));
        } else {
          double *v = x;
          const double xa = v[b + ia], xb = v[b + ib];
          v[b + ia] = xa * cos(ang) - xb * sin(ang);
          v[b + ib] = xa * sin(ang) + xb * cos(ang);
        }
      }
      off += dim;
    }
  }
  return 0;
}

static const pv_impl impl = {2, "abi-v2-plain", NULL, rope, NULL, NULL};
const pv_impl *posverify_impl(void) { return &impl; }
