/* Shared by the attend() members of the panel (attend_*.c): where a row of a
 * strided tensor starts, the logit of one visible key as framework code
 * computes it (q.k, times the scale, the softcap, the ALiBi bias), and the
 * plugin around a kernel instantiated in float and double. Each member keeps
 * its own mask and softmax: those are what differ between libraries. */
#ifndef PV_PANEL_ATTEND_PANEL_H
#define PV_PANEL_ATTEND_PANEL_H

#include "posverify/impl.h"

#include <math.h>
#include <stdlib.h>

/* Row (b, token t, head h) of tensor x, whose strides are member S of p. */
#define PV_PANEL_ROW(p, x, S, b, t, h) ((x) + (b) * (p)->S[0] + (t) * (p)->S[1] + (h) * (p)->S[2])

/* The explicit bias of key j for query i of item b when it is finite (its
 * -infinity masks the key: pv_attend_visible), else 0. */
static inline double pv_panel_bias(const pv_attention_problem *p, int64_t b, int64_t i, int64_t j) {
  if (!p->bias) return 0;
  const double x = p->bias[((p->bias_batch > 1 ? b : 0) * p->n_q + i) * p->n_k + j];
  return x > -INFINITY ? x : 0;
}

/* The logit of key j for query i of item b, head h: scale q.k, then
 * c tanh(x / c), then + alibi[h] (j - p), then + the explicit bias; in T,
 * assigned to `out`. */
#define PV_PANEL_LOGIT(T, TANH, p, qi, kj, scale, b, i, h, j, out)                  \
  do {                                                                              \
    T dot_ = 0;                                                                     \
    for (int64_t l_ = 0; l_ < (p)->d; ++l_) dot_ += (qi)[l_] * (kj)[l_];            \
    T x_ = dot_ * (scale);                                                          \
    if ((p)->softcap > 0) x_ = (T)(p)->softcap * TANH(x_ / (T)(p)->softcap);        \
    if ((p)->alibi) x_ += (T)(p)->alibi[h] * (T)((j) - ((p)->q_start[b] + (i)));    \
    if ((p)->bias) x_ += (T)pv_panel_bias(p, b, i, j);                              \
    (out) = x_;                                                                     \
  } while (0)

/* The 16-bit entry of a member that has no 16-bit path: it declines. */
static inline int pv_panel_no16(pv_dtype t, const pv_attention_problem *p, const void *q, const void *k,
                                const void *v, void *out, double *lse) {
  (void)t, (void)p, (void)q, (void)k, (void)v, (void)out, (void)lse;
  return 1;
}

/* The plugin: attend() dispatching to F32 and F64 (each
 * int (const pv_attention_problem *, const T *q, k, v, T *out, double *lse))
 * and F16 (int (pv_dtype, const pv_attention_problem *, const void *q, k, v,
 * void *out, double *lse), for float16 and bfloat16 both), with its name,
 * capabilities and empty-row convention, ABI version ABI and the 16-bit
 * dtypes DTYPES it declares (0 with pv_panel_no16). The two forms below. */
#define PV_PANEL_ATTEND_IMPL(NAME, CAPS, EMPTY, F32, F64, F16, ABI, DTYPES)                                  \
  static int attend(pv_dtype t, const pv_attention_problem *p, const void *q, const void *k, const void *v, \
                    void *out, double *lse) {                                                               \
    if (t == PV_F32) return F32(p, q, k, v, out, lse);                                                      \
    if (t == PV_F64) return F64(p, q, k, v, out, lse);                                                      \
    if (t == PV_F16 || t == PV_BF16) return F16(t, p, q, k, v, out, lse);                                   \
    return 1;                                                                                               \
  }                                                                                                         \
  static const pv_impl impl = {                                                                             \
      .abi_version = (ABI), .name = NAME, .attend = attend, .attend_caps = (CAPS),                          \
      .attend_empty_rows = (EMPTY), .dtypes = (DTYPES),                                                     \
  };                                                                                                        \
  const pv_impl *posverify_impl(void) { return &impl; }

/* float32 and float64 only, declining the 16-bit dtypes (ABI version 4). */
#define PV_PANEL_ATTEND_PLUGIN(NAME, CAPS, EMPTY, F32, F64) \
  PV_PANEL_ATTEND_IMPL(NAME, CAPS, EMPTY, F32, F64, pv_panel_no16, 4, 0)

/* float16 and bfloat16 too, declared in dtypes (ABI version 5). */
#define PV_PANEL_ATTEND_PLUGIN16(NAME, CAPS, EMPTY, F32, F64, F16) \
  PV_PANEL_ATTEND_IMPL(NAME, CAPS, EMPTY, F32, F64, F16, 5, PV_DTYPE_BIT(PV_F16) | PV_DTYPE_BIT(PV_BF16))

#define PV_PANEL_EVERY_CAPABILITY                                                                  \
  (PV_ATTEND_CAUSAL | PV_ATTEND_WINDOW | PV_ATTEND_PADDING | PV_ATTEND_GQA | PV_ATTEND_SOFTCAP | \
   PV_ATTEND_SINKS | PV_ATTEND_ALIBI | PV_ATTEND_LSE | PV_ATTEND_BIAS)

#endif
