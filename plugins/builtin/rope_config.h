/* Shared by the built-in plugins: validation of a RoPE configuration and the
 * component indices of pair k of an axis block. */
#ifndef PV_PLUGIN_ROPE_CONFIG_H_
#define PV_PLUGIN_ROPE_CONFIG_H_

#include "posverify/impl.h"

/* 0 when cfg is well formed (even dims summing to head_dim), else 2. */
static inline int pv_rope_config_ok(const pv_rope_config *cfg) {
  if (!cfg || cfg->head_dim <= 0 || cfg->head_dim % 2 || cfg->n_axes < 1 || cfg->n_axes > 4)
    return 2;
  int sum = 0;
  for (int a = 0; a < cfg->n_axes; ++a) {
    if (cfg->axes_dim[a] <= 0 || cfg->axes_dim[a] % 2) return 2;
    sum += cfg->axes_dim[a];
  }
  return sum == cfg->head_dim ? 0 : 2;
}

/* Components (*ia, *ib) of pair k in the block [off, off + dim). */
static inline void pv_pair(pv_pairing p, int off, int dim, int k, int *ia, int *ib) {
  if (p == PV_PAIRS_ADJACENT) {
    *ia = off + 2 * k;
    *ib = off + 2 * k + 1;
  } else {
    *ia = off + k;
    *ib = off + k + dim / 2;
  }
}

#endif
