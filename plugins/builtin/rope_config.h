/* Shared by the built-in plugins: validation of a RoPE configuration and the
 * component indices of pair k of an axis block. */
#ifndef PV_PLUGIN_ROPE_CONFIG_H_
#define PV_PLUGIN_ROPE_CONFIG_H_

#include "posverify/impl.h"

/* 0 when cfg is a well formed plain configuration (even dims summing to
 * head_dim), 1 ("unsupported") for one that needs ABI version 3 (partial
 * rotary, M-RoPE, scaled speeds: these plugins implement plain RoPE only),
 * else 2. */
static inline int pv_rope_config_ok(const pv_rope_config *cfg) {
  if (cfg && pv_rope_config_version(cfg) != 1) return 1;
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

/* cos and sin of pair k of axis a at position m (float32), as one kernel
 * computes them; *state starts at 1 for k = 0 of every axis and lets a kernel
 * carry a value (a ladder of speeds) from one pair to the next. */
typedef void (*pv_cos_sin_f32)(const void *ctx, const pv_rope_config *cfg, int64_t row, int a, int k,
                               float m, float *state, float *c, float *s);

/* Rotates the n rows of x (float32, n x head_dim) in place, pair by pair,
 * with the cos and sin given by cs: the loop every float32 RoPE shares. */
static inline void pv_rope_rotate_f32(const pv_rope_config *cfg, const double *pos, int64_t n, float *x,
                                      pv_cos_sin_f32 cs, const void *ctx) {
  for (int64_t r = 0; r < n; ++r) {
    int off = 0;
    float *row = x + r * cfg->head_dim;
    for (int a = 0; a < cfg->n_axes; ++a) {
      const int dim = cfg->axes_dim[a];
      const float m = (float)pos[r * cfg->n_axes + a];
      float state = 1.0f, c, s;
      for (int k = 0; k < dim / 2; ++k) {
        int ia, ib;
        pv_pair(cfg->pairing, off, dim, k, &ia, &ib);
        cs(ctx, cfg, r, a, k, m, &state, &c, &s);
        const float xa = row[ia], xb = row[ib];
        row[ia] = xa * c - xb * s;
        row[ib] = xa * s + xb * c;
      }
      off += dim;
    }
  }
}

#endif
