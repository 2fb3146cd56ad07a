/* Panel member: attend() (ABI version 4) the way split-KV decoding computes
 * it (FlashDecoding, vLLM's paged attention v2, llama.cpp's split-K): each
 * item's valid keys are cut into chunks of 16; each chunk yields its own
 * maximum m_c, sum l_c = sum exp(s_j - m_c) and unnormalised accumulator, as
 * a separate kernel launch would; a reduction merges the chunks by their
 * log-sum-exp, weighting each by exp(m_c - M) with M the largest maximum (the
 * sink joins M and the denominator only). Chunks without a visible key are
 * skipped. Arithmetic in the call's dtype; empty rows: zeros; every
 * capability. */
#include "panel/attend_panel.h"

enum { CHUNK = 16 };

#define SPLIT_KV_KERNEL(NAME, T, EXP, LOG, TANH, SQRT)                                                      \
  static int NAME(const pv_attention_problem *p, const T *q, const T *k, const T *v, T *out, double *lse) { \
    const T scale = p->scale != 0 ? (T)p->scale : (T)1 / SQRT((T)p->d);                                  \
    const int64_t chunks = (p->n_k + CHUNK - 1) / CHUNK + 1;                                             \
    T *part = malloc(sizeof(T) * (size_t)(chunks * (p->d_v + 2))); /* per chunk: m, l, acc[d_v] */       \
    if (!part) return 2;                                                                                  \
    for (int64_t b = 0; b < p->batch; ++b) {                                                              \
      const int64_t n = p->k_len[b] < p->n_k ? p->k_len[b] : p->n_k;                                     \
      for (int64_t h = 0; h < p->h_q; ++h) {                                                              \
        const int64_t g = h * p->h_kv / p->h_q;                                                           \
        for (int64_t i = 0; i < p->n_q; ++i) {                                                            \
          const T *qi = PV_PANEL_ROW(p, q, q_stride, b, i, h);                                             \
          T *o = PV_PANEL_ROW(p, out, out_stride, b, i, h);                                                \
          int64_t used = 0;                                                                               \
          for (int64_t j0 = 0; j0 < n; j0 += CHUNK) { /* one launch per chunk */                          \
            const int64_t j1 = j0 + CHUNK < n ? j0 + CHUNK : n;                                           \
            T s[CHUNK], m = (T)-INFINITY, l = 0;                                                          \
            for (int64_t j = j0; j < j1; ++j) {                                                           \
              s[j - j0] = (T)-INFINITY;                                                                   \
              if (!pv_attend_visible(p, b, i, j)) continue;                                               \
              T y;                                                                                        \
              PV_PANEL_LOGIT(T, TANH, p, qi, PV_PANEL_ROW(p, k, k_stride, b, j, g), scale, b, i, h, j, y); \
              s[j - j0] = y;                                                                              \
              if (y > m) m = y;                                                                           \
            }                                                                                             \
            if (m == -INFINITY) continue; /* nothing visible in this chunk */                             \
            T *pc = part + used * (p->d_v + 2);                                                           \
            for (int64_t c = 0; c < p->d_v; ++c) pc[2 + c] = 0;                                           \
            for (int64_t j = j0; j < j1; ++j) {                                                           \
              if (s[j - j0] == -INFINITY) continue;                                                       \
              const T e = EXP(s[j - j0] - m);                                                             \
              const T *vj = PV_PANEL_ROW(p, v, v_stride, b, j, g);                                         \
              l += e;                                                                                     \
              for (int64_t c = 0; c < p->d_v; ++c) pc[2 + c] += e * vj[c];                                \
            }                                                                                             \
            pc[0] = m;                                                                                    \
            pc[1] = l;                                                                                    \
            ++used;                                                                                       \
          }                                                                                               \
          /* the reduction: merge the chunks (and the sink) by their log-sum-exp */                       \
          T M = p->sink ? (T)p->sink[h] : (T)-INFINITY;                                                   \
          for (int64_t u = 0; u < used; ++u) M = part[u * (p->d_v + 2)] > M ? part[u * (p->d_v + 2)] : M; \
          for (int64_t c = 0; c < p->d_v; ++c) o[c] = 0;                                                  \
          if (M == -INFINITY) { /* an empty row */                                                        \
            if (lse) lse[(b * p->h_q + h) * p->n_q + i] = -INFINITY;                                      \
            continue;                                                                                     \
          }                                                                                               \
          T L = p->sink ? EXP((T)p->sink[h] - M) : (T)0;                                                  \
          for (int64_t u = 0; u < used; ++u) {                                                            \
            const T *pc = part + u * (p->d_v + 2);                                                        \
            const T w = EXP(pc[0] - M);                                                                   \
            L += w * pc[1];                                                                               \
            for (int64_t c = 0; c < p->d_v; ++c) o[c] += w * pc[2 + c];                                   \
          }                                                                                               \
          for (int64_t c = 0; c < p->d_v; ++c) o[c] /= L;                                                 \
          if (lse) lse[(b * p->h_q + h) * p->n_q + i] = (double)(M + LOG(L));                             \
        }                                                                                                 \
      }                                                                                                   \
    }                                                                                                     \
    free(part);                                                                                           \
    return 0;                                                                                             \
  }

SPLIT_KV_KERNEL(attend_f32, float, expf, logf, tanhf, sqrtf)
SPLIT_KV_KERNEL(attend_f64, double, exp, log, tanh, sqrt)

PV_PANEL_ATTEND_PLUGIN("panel-attend-split-kv", PV_PANEL_EVERY_CAPABILITY, PV_EMPTY_ZEROS, attend_f32, attend_f64)
