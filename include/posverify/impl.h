/* posverify/impl.h: the C interface through which `posverify check --impl
 * LIB.so` calls an implementation of attention, RoPE and the additive
 * sinusoid. A plugin is a shared library exporting one symbol,
 * posverify_impl(), returning a pointer to a static pv_impl.
 *
 * Each function returns 0 on success, 1 for "this dtype or configuration is
 * not supported", anything else for an error. A NULL function pointer means
 * "not provided": those laws are reported as not run. Buffers are row-major
 * arrays of float (PV_F32) or double (PV_F64); inputs must not be written.
 * Version 1 of the ABI. */
#ifndef POSVERIFY_IMPL_H_
#define POSVERIFY_IMPL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PV_ABI_VERSION 2
typedef enum pv_dtype { PV_F32 = 0, PV_F64 = 1, PV_F16 = 2, PV_BF16 = 3 } pv_dtype;
typedef enum pv_pairing { PV_PAIRS_ADJACENT = 0, PV_PAIRS_HALVES = 1 } pv_pairing;
typedef struct pv_rope_config {
  int32_t head_dim;     /* components per head, even */
  int32_t n_axes;       /* 1 for text, 3 for FLUX.1 */
  int32_t axes_dim[4];  /* components per axis, summing to head_dim */
  double theta;         /* base of each axis's speed ladder theta^(-2k/axes_dim[a]) */
  pv_pairing pairing;   /* (2i, 2i+1) or (i, i + dim/2) within each axis */
} pv_rope_config;
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
