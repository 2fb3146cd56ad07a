/* posverify/impl.h: the C interface through which `posverify check --impl
 * LIB.so` calls an implementation of attention, RoPE and the additive
 * sinusoid. A plugin is a shared library exporting one symbol,
 * posverify_impl(), returning a pointer to a static pv_impl.
 *
 * Each function returns 0 on success, 1 for "this dtype or configuration is
 * not supported", anything else for an error. A NULL function pointer means
 * "not provided": those laws are reported as not run. Buffers are row-major
 * arrays of float (PV_F32) or double (PV_F64); inputs must not be written.
 * Version 3 of the ABI: plugins declaring versions 1 and 2 keep loading; they
 * are never called with a configuration that needs version 3 (partial rotary,
 * M-RoPE, scaled speeds: see pv_rope_config_version) and such laws are
 * reported "unsupported" for them (docs/rope-configs.md). A function added
 * to the interface is appended at the end of pv_impl under a new version: a
 * plugin is never read past the members of the version it declares. */
#ifndef POSVERIFY_IMPL_H_
#define POSVERIFY_IMPL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PV_ABI_VERSION 3
typedef enum pv_dtype { PV_F32 = 0, PV_F64 = 1, PV_F16 = 2, PV_BF16 = 3 } pv_dtype;
typedef enum pv_pairing { PV_PAIRS_ADJACENT = 0, PV_PAIRS_HALVES = 1 } pv_pairing;
/* version 3: how the speeds of the ladder are scaled for long context
 * (formulas and sources: docs/rope-configs.md). w_k = theta^(-2k/R) is the
 * plain ladder over the R rotated components. */
typedef enum pv_rope_scaling_kind {
  PV_SCALE_NONE = 0,
  PV_SCALE_LINEAR = 1,       /* positions / factor (position interpolation) */
  PV_SCALE_NTK = 2,          /* theta * factor^(R/(R-2)) (NTK-aware) */
  PV_SCALE_DYNAMIC_NTK = 3,  /* theta * (factor L/L0 - (factor-1))^(R/(R-2)) when L > L0 */
  PV_SCALE_YARN = 4,         /* ramp between w_k/factor and w_k, times attention_factor */
  PV_SCALE_LLAMA3 = 5        /* Llama 3.1: w/factor below, w above, smooth between */
} pv_rope_scaling_kind;
typedef struct pv_rope_scaling {
  int32_t kind;              /* a pv_rope_scaling_kind; 0: plain speeds */
  int32_t reserved;          /* 0 */
  double factor;             /* the scale factor s (> 1) */
  double low;                /* yarn: beta_slow; llama3: low_freq_factor */
  double high;               /* yarn: beta_fast; llama3: high_freq_factor */
  double original_length;    /* L0, the pretraining context (original_max_position_embeddings) */
  double length;             /* dynamic NTK: the current sequence length L */
  double attention_factor;   /* yarn: rotated components times this (0.1 ln s + 1) */
} pv_rope_scaling;
typedef struct pv_rope_config {
  int32_t head_dim;     /* components per head, even */
  int32_t n_axes;       /* 1 for text, 3 for FLUX.1 and M-RoPE */
  int32_t axes_dim[4];  /* components per axis, summing to head_dim (version 3: to R <= head_dim) */
  double theta;         /* base of each axis's speed ladder theta^(-2k/axes_dim[a]) */
  pv_pairing pairing;   /* (2i, 2i+1) or (i, i + dim/2) within each axis */
  /* version 3 (all zero for the configurations of versions 1 and 2): */
  int32_t mrope;        /* 1: M-RoPE, ONE ladder theta^(-2k/R) over the R = sum axes_dim
                           components, paired within R; pair k is driven by axis a when
                           2k falls in the a-th section (axes_dim[a] components) */
  pv_rope_scaling scaling;
  /* partial rotary: components R .. head_dim-1 (R = sum axes_dim) pass through unchanged */
} pv_rope_config;

/* 3 when cfg needs version 3 of the ABI (partial rotary, M-RoPE or scaled
 * speeds), else 1. */
static inline int pv_rope_config_version(const pv_rope_config *cfg) {
  int32_t sum = 0;
  for (int a = 0; a < cfg->n_axes && a < 4; ++a) sum += cfg->axes_dim[a];
  return sum != cfg->head_dim || cfg->mrope || cfg->scaling.kind ? 3 : 1;
}
typedef struct pv_impl {
  uint32_t abi_version;
  const char *name;
  /* out[n_q x d_v] = softmax(q k^T / sqrt(d)) v, row-major, no mask */
  int (*attention)(pv_dtype t, const void *q, const void *k, const void *v,
                   int64_t n_q, int64_t n_k, int64_t d, int64_t d_v, void *out);
  /* rotates x[n x head_dim] in place; pos[n x n_axes] */
  int (*rope)(pv_dtype t, const pv_rope_config *cfg, const double *pos,
              int64_t n, void *x);
  /* out[n x d] = additive sinusoid, adjacent (sin, cos) pairs, speeds base^(-2i/d) */
  int (*sinusoid)(pv_dtype t, int64_t d, double base, const double *pos,
                  int64_t n, void *out);
  /* version 2: the accuracy class of the arithmetic behind a float32
   * interface, when it is coarser: "float16" or "bfloat16" (inputs stored in
   * that format, float32 accumulation), "float16-accumulation" (every
   * operation in float16); NULL or "" for float32 itself. posverify check
   * --accuracy overrides it. */
  const char *accuracy;
} pv_impl;
const pv_impl *posverify_impl(void);   /* the one exported symbol */

#ifdef __cplusplus
}
#endif

#endif /* POSVERIFY_IMPL_H_ */
