/* Panel member: attend() (ABI version 4) the way ggml builds it (llama.cpp's
 * KQ mask and soft_max_ext): one float16 mask per batch item, [n_q][k_len],
 * holding -infinity for a masked key (by the flags or the explicit bias) and
 * otherwise 0, or with ALiBi the key's relative position j - p (an integer,
 * exact in float16 up to 2048), built once and shared by every head; the
 * explicit bias's finite values stored in float16 beside it (the mask
 * llama.cpp's caller hands ggml is float16); a head's scores are
 * softcap tanh(q.k (scale / softcap)) (the scale folded into the cap's
 * division, as ggml folds it) plus slope times the mask value; the sink
 * joins the maximum and the denominator; then exp, sum, and V weighted in
 * float. Only each item's first k_len keys are read. Arithmetic in the
 * call's dtype (float16 for the mask); empty rows: zeros; no log-sum-exp
 * (ggml's soft_max returns none). */
#include "panel/attend_panel.h"

#define F16_MASK_KERNEL(NAME, T, EXP, TANH, SQRT)                                                     \
  static int NAME(const pv_attention_problem *p, const T *q, const T *k, const T *v, T *out,         \
                  double *lse) {                                                                    \
    (void)lse; /* not declared: never asked for */                                                  \
    const T scale = p->scale != 0 ? (T)p->scale : (T)1 / SQRT((T)p->d);                            \
    _Float16 *mask = malloc(sizeof(_Float16) * (size_t)(p->n_q * p->n_k + 1));                     \
    _Float16 *bias = malloc(sizeof(_Float16) * (size_t)(p->n_q * p->n_k + 1));                     \
    T *s = malloc(sizeof(T) * (size_t)(p->n_k + 1));                                               \
    if (!mask || !bias || !s) {                                                                     \
      free(mask);                                                                                   \
      free(bias);                                                                                   \
      free(s);                                                                                      \
      return 2;                                                                                     \
    }                                                                                               \
    for (int64_t b = 0; b < p->batch; ++b) {                                                        \
      const int64_t n = p->k_len[b] < p->n_k ? p->k_len[b] : p->n_k;                               \
      for (int64_t i = 0; i < p->n_q; ++i)                                                          \
        for (int64_t j = 0; j < n; ++j)                                                             \
          mask[i * n + j] = !pv_attend_visible(p, b, i, j) ? (_Float16)-INFINITY                   \
                            : p->alibi                     ? (_Float16)(j - (p->q_start[b] + i))   \
                                                           : (_Float16)0;                          \
      for (int64_t i = 0; i < p->n_q; ++i)                                                          \
        for (int64_t j = 0; j < n; ++j) bias[i * n + j] = (_Float16)pv_panel_bias(p, b, i, j);      \
      for (int64_t h = 0; h < p->h_q; ++h) {                                                        \
        const int64_t g = h * p->h_kv / p->h_q;                                                     \
        const T slope = p->alibi ? (T)p->alibi[h] : (T)1;                                           \
        for (int64_t i = 0; i < p->n_q; ++i) {                                                      \
          const T *qi = PV_PANEL_ROW(p, q, q_stride, b, i, h);                                       \
          T *o = PV_PANEL_ROW(p, out, out_stride, b, i, h);                                          \
          T mx = p->sink ? (T)p->sink[h] : (T)-INFINITY, z = 0;                                     \
          for (int64_t j = 0; j < n; ++j) {                                                         \
            const T mv = (T)mask[i * n + j];                                                        \
            s[j] = (T)-INFINITY;                                                                    \
            if (mv == -INFINITY) continue; /* not read */                                           \
            const T *kj = PV_PANEL_ROW(p, k, k_stride, b, j, g);                                     \
            T dot = 0;                                                                              \
            for (int64_t l = 0; l < p->d; ++l) dot += qi[l] * kj[l];                                \
            T x = p->softcap > 0 ? (T)p->softcap * TANH(dot * (scale / (T)p->softcap)) : dot * scale; \
            s[j] = x + slope * mv;                                                                  \
            if (p->bias) s[j] += (T)bias[i * n + j];                                                \
            if (s[j] > mx) mx = s[j];                                                               \
          }                                                                                         \
          for (int64_t c = 0; c < p->d_v; ++c) o[c] = 0;                                            \
          if (mx == -INFINITY) continue; /* an empty row: zeros */                                  \
          for (int64_t j = 0; j < n; ++j) z += (s[j] = EXP(s[j] - mx));                             \
          if (p->sink) z += EXP((T)p->sink[h] - mx);                                                \
          for (int64_t j = 0; j < n; ++j) {                                                         \
            if (s[j] == 0) continue;                                                                \
            const T w = s[j] / z;                                                                   \
            const T *vj = PV_PANEL_ROW(p, v, v_stride, b, j, g);                                     \
            for (int64_t c = 0; c < p->d_v; ++c) o[c] += w * vj[c];                                 \
          }                                                                                         \
        }                                                                                           \
      }                                                                                             \
    }                                                                                               \
    free(mask);                                                                                     \
    free(bias);                                                                                     \
    free(s);                                                                                        \
    return 0;                                                                                       \
  }

F16_MASK_KERNEL(attend_f32, float, expf, tanhf, sqrtf)
F16_MASK_KERNEL(attend_f64, double, exp, tanh, sqrt)

PV_PANEL_ATTEND_PLUGIN("panel-attend-f16-mask", PV_PANEL_EVERY_CAPABILITY & ~PV_ATTEND_LSE, PV_EMPTY_ZEROS, attend_f32,
                       attend_f64)
