/* Panel member: attend() (ABI version 4) the way eager framework code
 * computes it (PyTorch's math path, Hugging Face's eager attention): for each
 * batch item an explicit additive mask [n_q][k_len] of 0 and -infinity is
 * built first from the queries' positions (causal, window), then per head the
 * whole score row is formed (scale, softcap, ALiBi bias, mask added), its
 * maximum taken, exp(s - max) summed (the sink joins the maximum and the sum
 * only), the weights normalised and multiplied into V. Only each item's first
 * k_len keys are read (a varlen batch). Arithmetic in the call's dtype;
 * empty rows: zeros (their weights are all zero); every capability. */
#include "panel/attend_panel.h"

#define EXPLICIT_MASK_KERNEL(NAME, T, EXP, LOG, TANH, SQRT)                                                 \
  static int NAME(const pv_attention_problem *p, const T *q, const T *k, const T *v, T *out, double *lse) { \
    const T scale = p->scale != 0 ? (T)p->scale : (T)1 / SQRT((T)p->d);                                  \
    T *mask = malloc(sizeof(T) * (size_t)(p->n_q * p->n_k + 1));                                         \
    T *s = malloc(sizeof(T) * (size_t)(p->n_k + 1));                                                     \
    if (!mask || !s) {                                                                                    \
      free(mask);                                                                                         \
      free(s);                                                                                            \
      return 2;                                                                                           \
    }                                                                                                     \
    for (int64_t b = 0; b < p->batch; ++b) {                                                              \
      const int64_t n = p->k_len[b] < p->n_k ? p->k_len[b] : p->n_k;                                     \
      for (int64_t i = 0; i < p->n_q; ++i)                                                                \
        for (int64_t j = 0; j < n; ++j) mask[i * n + j] = pv_attend_visible(p, b, i, j) ? (T)0 : (T)-INFINITY; \
      for (int64_t h = 0; h < p->h_q; ++h) {                                                              \
        const int64_t g = h * p->h_kv / p->h_q;                                                           \
        for (int64_t i = 0; i < p->n_q; ++i) {                                                            \
          const T *qi = PV_PANEL_ROW(p, q, q_stride, b, i, h);                                             \
          T *o = PV_PANEL_ROW(p, out, out_stride, b, i, h);                                                \
          T mx = p->sink ? (T)p->sink[h] : (T)-INFINITY;                                                  \
          for (int64_t j = 0; j < n; ++j) {                                                               \
            if (mask[i * n + j] != 0) { /* masked: not read (its K/V may hold anything) */                \
              s[j] = (T)-INFINITY;                                                                        \
              continue;                                                                                   \
            }                                                                                             \
            T x;                                                                                          \
            PV_PANEL_LOGIT(T, TANH, p, qi, PV_PANEL_ROW(p, k, k_stride, b, j, g), scale, b, i, h, j, x);  \
            s[j] = x + mask[i * n + j];                                                                   \
            if (s[j] > mx) mx = s[j];                                                                     \
          }                                                                                               \
          T z = 0;                                                                                        \
          if (mx == -INFINITY) { /* no visible key, no sink: an empty row */                              \
            for (int64_t c = 0; c < p->d_v; ++c) o[c] = 0;                                                \
            if (lse) lse[(b * p->h_q + h) * p->n_q + i] = -INFINITY;                                      \
            continue;                                                                                     \
          }                                                                                               \
          for (int64_t j = 0; j < n; ++j) z += (s[j] = EXP(s[j] - mx));                                   \
          if (p->sink) z += EXP((T)p->sink[h] - mx);                                                      \
          for (int64_t c = 0; c < p->d_v; ++c) o[c] = 0;                                                  \
          for (int64_t j = 0; j < n; ++j) {                                                               \
            if (s[j] == 0) continue;                                                                      \
            const T w = s[j] / z;                                                                         \
            const T *vj = PV_PANEL_ROW(p, v, v_stride, b, j, g);                                           \
            for (int64_t c = 0; c < p->d_v; ++c) o[c] += w * vj[c];                                       \
          }                                                                                               \
          if (lse) lse[(b * p->h_q + h) * p->n_q + i] = (double)(mx + LOG(z));                            \
        }                                                                                                 \
      }                                                                                                   \
    }                                                                                                     \
    free(mask);                                                                                           \
    free(s);                                                                                              \
    return 0;                                                                                             \
  }

EXPLICIT_MASK_KERNEL(attend_f32, float, expf, logf, tanhf, sqrtf)
EXPLICIT_MASK_KERNEL(attend_f64, double, exp, log, tanh, sqrt)

PV_PANEL_ATTEND_PLUGIN("panel-attend-explicit-mask", PV_PANEL_EVERY_CAPABILITY, PV_EMPTY_ZEROS, attend_f32, attend_f64)
