/* Panel member: attend() (ABI version 4) with the mask Hugging Face's eager
 * attention builds: the lowest finite value of the dtype (torch.finfo.min)
 * added to each masked score instead of -infinity. A row with visible keys
 * weighs its masked keys exp(min - max) = 0 exactly; a row with none weighs
 * its keys alike (every score rounds to the lowest value), so it holds the
 * mean of the item's valid values: the convention it declares
 * (PV_EMPTY_MEAN). Only each item's first k_len keys are read (the valid
 * cache length), as a varlen batch. Arithmetic in the call's dtype; no sinks
 * and no log-sum-exp (an empty row's would be that of the mask, not -inf).
 * Float16 and bfloat16 (declared in dtypes): the eager attention run in the
 * dtype, each operation computed in float32 (PyTorch's opmath) and its result
 * stored in the format -- the scores q.k, times the scale, the softcap's
 * division, tanh and product, the ALiBi bias and the biased score, the
 * explicit bias and that biased score -- then the
 * mask added and the softmax taken in float32 (softmax(..., dtype=float32)),
 * the probabilities stored in the format, p v summed in float32 (a matmul's
 * accumulator) and the output stored. */
#include "panel/attend_panel.h"

#include "builtin/sixteen_bit.h"

#include <float.h>

#define FINFO_MIN_KERNEL(NAME, T, LOWEST, EXP, TANH, SQRT)                                         \
  static int NAME(const pv_attention_problem *p, const T *q, const T *k, const T *v, T *out,      \
                  double *lse) {                                                                 \
    (void)lse; /* not declared: never asked for */                                               \
    const T scale = p->scale != 0 ? (T)p->scale : (T)1 / SQRT((T)p->d);                         \
    T *s = malloc(sizeof(T) * (size_t)(p->n_k + 1));                                            \
    if (!s) return 2;                                                                            \
    for (int64_t b = 0; b < p->batch; ++b) {                                                     \
      const int64_t n = p->k_len[b] < p->n_k ? p->k_len[b] : p->n_k;                            \
      for (int64_t h = 0; h < p->h_q; ++h) {                                                     \
        const int64_t g = h * p->h_kv / p->h_q;                                                  \
        for (int64_t i = 0; i < p->n_q; ++i) {                                                   \
          const T *qi = PV_PANEL_ROW(p, q, q_stride, b, i, h);                                    \
          T *o = PV_PANEL_ROW(p, out, out_stride, b, i, h);                                       \
          T mx = -INFINITY, z = 0;                                                               \
          for (int64_t j = 0; j < n; ++j) {                                                      \
            T x;                                                                                 \
            PV_PANEL_LOGIT(T, TANH, p, qi, PV_PANEL_ROW(p, k, k_stride, b, j, g), scale, b, i, h, j, x); \
            s[j] = x + (pv_attend_visible(p, b, i, j) ? (T)0 : LOWEST);                          \
            if (s[j] > mx) mx = s[j];                                                            \
          }                                                                                      \
          for (int64_t j = 0; j < n; ++j) z += (s[j] = EXP(s[j] - mx));                          \
          for (int64_t c = 0; c < p->d_v; ++c) o[c] = 0;                                         \
          for (int64_t j = 0; j < n; ++j) {                                                      \
            const T w = s[j] / z;                                                                \
            const T *vj = PV_PANEL_ROW(p, v, v_stride, b, j, g);                                  \
            for (int64_t c = 0; c < p->d_v; ++c) o[c] += w * vj[c];                              \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
    free(s);                                                                                     \
    return 0;                                                                                    \
  }

FINFO_MIN_KERNEL(attend_f32, float, -FLT_MAX, expf, tanhf, sqrtf)
FINFO_MIN_KERNEL(attend_f64, double, -DBL_MAX, exp, tanh, sqrt)

static int attend_16(pv_dtype t, const pv_attention_problem *p, const void *qp, const void *kp, const void *vp,
                     void *outp, double *lse) {
  (void)lse; /* not declared: never asked for */
  const uint16_t *q = qp, *k = kp, *v = vp;
  uint16_t *out = outp;
  const float scale = p->scale != 0 ? (float)p->scale : 1.0f / sqrtf((float)p->d), cap = (float)p->softcap;
  float *s = malloc(sizeof(float) * (size_t)(p->n_k + 1));
  if (!s) return 2;
  for (int64_t b = 0; b < p->batch; ++b) {
    const int64_t n = p->k_len[b] < p->n_k ? p->k_len[b] : p->n_k;
    for (int64_t h = 0; h < p->h_q; ++h) {
      const int64_t g = h * p->h_kv / p->h_q;
      for (int64_t i = 0; i < p->n_q; ++i) {
        const uint16_t *qi = PV_PANEL_ROW(p, q, q_stride, b, i, h);
        uint16_t *o = PV_PANEL_ROW(p, out, out_stride, b, i, h);
        float mx = -INFINITY, z = 0;
        for (int64_t j = 0; j < n; ++j) {
          const uint16_t *kj = PV_PANEL_ROW(p, k, k_stride, b, j, g);
          float dot = 0;
          for (int64_t l = 0; l < p->d; ++l) dot += pv_from16(t, qi[l]) * pv_from16(t, kj[l]);
          float x = pv_round16(t, pv_round16(t, dot) * scale);
          if (cap > 0) {
            x = pv_round16(t, x / cap);
            x = pv_round16(t, tanhf(x));
            x = pv_round16(t, x * cap);
          }
          if (p->alibi) x = pv_round16(t, x + pv_round16(t, (float)p->alibi[h] * (float)(j - (p->q_start[b] + i))));
          if (p->bias) x = pv_round16(t, x + pv_round16(t, (float)pv_panel_bias(p, b, i, j)));
          s[j] = x + (pv_attend_visible(p, b, i, j) ? 0.0f : -FLT_MAX);
          if (s[j] > mx) mx = s[j];
        }
        for (int64_t j = 0; j < n; ++j) z += (s[j] = expf(s[j] - mx));
        for (int64_t c = 0; c < p->d_v; ++c) {
          float acc = 0;
          for (int64_t j = 0; j < n; ++j)
            acc += pv_round16(t, s[j] / z) * pv_from16(t, PV_PANEL_ROW(p, v, v_stride, b, j, g)[c]);
          o[c] = pv_to16(t, acc);
        }
      }
    }
  }
  free(s);
  return 0;
}

PV_PANEL_ATTEND_PLUGIN16("panel-attend-finfo-min",
                         PV_ATTEND_CAUSAL | PV_ATTEND_WINDOW | PV_ATTEND_PADDING | PV_ATTEND_GQA | PV_ATTEND_SOFTCAP |
                             PV_ATTEND_ALIBI,
                         PV_EMPTY_MEAN, attend_f32, attend_f64, attend_16)
