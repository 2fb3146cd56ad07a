/* Hostile: the float64 RoPE of plain_double.c, declining (returns 1) every
 * call with a position at or beyond 4096 on any axis, so that under
 * --max-position 8192 half the cases of every RoPE law are never evaluated
 * (and a kernel wrong from 4096 on would pass them). A kernel may decline a
 * dtype or a configuration, not a position: insufficient. */
#include "hostile.h"

static int far_rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *x) {
  for (int64_t i = 0; i < n * (cfg->n_axes > 0 ? cfg->n_axes : 1); ++i)
    if (pos[i] >= 4096) return 1;
  return rope(t, cfg, pos, n, x);
}

static const pv_impl far_impl = {PV_ABI_VERSION, "hostile-declines-far-positions", NULL, far_rope, NULL, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &far_impl; }
