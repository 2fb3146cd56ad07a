/* attend() (ABI version 4, posverify/impl.h) as a tiled online softmax, the
 * way FlashAttention computes it (Dao et al. 2022, algorithm 1; Milakov and
 * Gimelshein 2018): keys in tiles of PV_ATTEND_TILE, a running maximum m, a
 * running denominator l and accumulator rescaled by exp(m_old - m_new) when
 * the maximum grows, one division at the end: the same tiles and order for a
 * row whatever else the call holds, so it declares a fixed schedule
 * (PV_ATTEND_FIXED_SCHEDULE). An explicit bias is added after the softcap
 * and ALiBi, its -infinity skipping the key like the mask. A sink enters as the starting
 * state (m = sink, l = 1, nothing accumulated), so it counts in the
 * denominator only. Only visible keys are read (padded and masked K/V memory
 * may hold anything). Arithmetic in the call's dtype: float for PV_F32,
 * double for PV_F64; float for float16 and bfloat16 storage, where the plugin
 * declares them (PV_ATTEND_DTYPES).
 *
 * The built-in plugin (attend_tiled.c) includes it as is; each mutant of
 * plugins/mutants/attend_*.c switches on one bug with PV_ATTEND_BUGS. */
#include "posverify/impl.h"

#include "builtin/sixteen_bit.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#ifndef PV_ATTEND_TILE
#define PV_ATTEND_TILE 16
#endif

typedef struct pv_attend_bugs {
  int top_left;      /* the causal mask aligned at position 0, q_start ignored */
  int window_extra;  /* window_left + this keys on the left */
  int tile;          /* query head h reads KV head h mod h_kv */
  int no_softcap;    /* the softcap ignored */
  int no_sinks;      /* the sinks dropped */
  int reads_padding; /* k_len ignored: the padded keys are read and weighted */
  int lse_log2;      /* the log-sum-exp returned in base 2 (log2 Z) */
  int no_scale;      /* 1/sqrt(d) in place of the problem's scale */
  int no_alibi;      /* the ALiBi slopes ignored */
  int softcap_swish; /* the cap computed as (s/c) tanh(s/c) */
  int cap_after_bias; /* the cap applied after the ALiBi bias: c tanh((s + bias)/c) */
  int decode_swap;    /* n_q = 1, GQA: query head g group + r of item b reads item b + r's head g */
  int prefill_not_causal; /* the causal mask dropped when n_q > 1 (cached != uncached) */
  int k_dense;        /* k's strides ignored: read as dense (batch, token, head) */
  int q_grid_floor;   /* query rows in blocks of 64, a grid of floor(n_q / 64) blocks once n_q > 64:
                         the rows past the last full block are never written */
  int tile_by_batch;  /* key tiles of 4 when batch x h_q < 8 (to fill the cores), else PV_ATTEND_TILE,
                         while declaring a fixed schedule */
  int mask_before_cap; /* the explicit bias added before the cap: c tanh((s + bias)/c), -inf giving -c */
  int bias_item0;      /* every item reads item 0's bias (a per-item bias read as a shared one) */
  int varlen_k_from_q; /* packed items: the keys cut with the queries' offsets (cu_seqlens_q for both) */
  int64_t key_limit;   /* only keys 0 .. key_limit - 1 read (a score buffer of that size, clamped) */
} pv_attend_bugs;

/* what an empty row holds (the declared convention, pv_empty_rows) */
#ifndef PV_ATTEND_EMPTY
#define PV_ATTEND_EMPTY PV_EMPTY_ZEROS
#endif
/* what it declares (a mutant declares one convention and writes another) */
#ifndef PV_ATTEND_DECLARED_EMPTY
#define PV_ATTEND_DECLARED_EMPTY PV_ATTEND_EMPTY
#endif

/* the 16-bit dtypes it takes (PV_DTYPE_BIT of PV_F16, PV_BF16; ABI version 5):
 * stored in them, computed in float */
#ifndef PV_ATTEND_DTYPES
#define PV_ATTEND_DTYPES 0
#endif

#ifndef PV_ATTEND_BUGS
#define PV_ATTEND_BUGS {0}
#endif
static const pv_attend_bugs attend_bugs = PV_ATTEND_BUGS;

/* the explicit bias of key j for query i of item b (0 without) */
static double attend_bias(const pv_attention_problem *p, int64_t b, int64_t i, int64_t j) {
  if (!p->bias) return 0;
  const int64_t item = p->bias_batch > 1 && !attend_bugs.bias_item0 ? b : 0;
  return p->bias[(item * p->n_q + i) * p->n_k + j];
}

static int attend_visible(const pv_attention_problem *p, int64_t b, int64_t i, int64_t j) {
  const int64_t pos = (attend_bugs.top_left ? 0 : p->q_start[b]) + i;
  if (attend_bias(p, b, i, j) == -INFINITY && !(attend_bugs.mask_before_cap && p->softcap > 0)) return 0;
  if ((!attend_bugs.reads_padding && j >= p->k_len[b]) || j >= p->n_k) return 0;
  if (p->causal && j > pos && !(attend_bugs.prefill_not_causal && p->n_q > 1)) return 0;
  if (p->window_left >= 0 && j < pos - p->window_left - attend_bugs.window_extra) return 0;
  if (p->window_right >= 0 && j > pos + p->window_right) return 0;
  return 1;
}

#define PV_ATTEND_KERNEL(NAME, T, EXP, TANH, LOG, SQRT, ACC)                                                \
  static void NAME(const pv_attention_problem *p, const T *q, const T *k, const T *v, T *out, double *lse) { \
    const T scale = p->scale != 0 && !attend_bugs.no_scale ? (T)p->scale : (T)1 / SQRT((T)p->d);         \
    const T cap = (T)p->softcap;                                                                         \
    const int64_t tile = attend_bugs.tile_by_batch && p->batch * p->h_q < 8 ? 4 : PV_ATTEND_TILE;        \
    T s[PV_ATTEND_TILE];                                                                                 \
    for (int64_t b = 0; b < p->batch; ++b)                                                               \
      for (int64_t h = 0; h < p->h_q; ++h) {                                                             \
        const int64_t g = attend_bugs.tile ? h % p->h_kv : h * p->h_kv / p->h_q;                         \
        const int64_t rows = attend_bugs.q_grid_floor && p->n_q > 64 ? p->n_q / 64 * 64 : p->n_q;      \
        for (int64_t i = 0; i < rows; ++i) {                                                             \
          const int swap = attend_bugs.decode_swap && p->n_q == 1 && p->h_q > p->h_kv;                     \
          const int64_t grp = p->h_q / p->h_kv;                                                            \
          const T *qi = swap ? q + ((b + h % grp) % p->batch) * p->q_stride[0] + (h / grp) * p->q_stride[2] \
                             : q + b * p->q_stride[0] + i * p->q_stride[1] + h * p->q_stride[2];             \
          T *o = out + b * p->out_stride[0] + i * p->out_stride[1] + h * p->out_stride[2];               \
          const int64_t pos = p->q_start[b] + i;                                                         \
          const int64_t nk0 = p->k_len[b] < p->n_k && !attend_bugs.reads_padding ? p->k_len[b] : p->n_k; \
          const int64_t nk = attend_bugs.key_limit && nk0 > attend_bugs.key_limit ? attend_bugs.key_limit : nk0; \
          T m = -(T)INFINITY, l = 0;                                                                     \
          for (int64_t c = 0; c < p->d_v; ++c) o[c] = 0;                                                 \
          if (p->sink && !attend_bugs.no_sinks) {                                                        \
            m = (T)p->sink[h];                                                                           \
            l = 1;                                                                                       \
          }                                                                                              \
          for (int64_t j0 = 0; j0 < nk; j0 += tile) {                                                    \
            const int64_t j1 = j0 + tile < nk ? j0 + tile : nk;                                          \
            T mt = -(T)INFINITY;                                                                         \
            int any = 0;                                                                                 \
            for (int64_t j = j0; j < j1; ++j) {                                                          \
              if (!attend_visible(p, b, i, j)) continue;                                                 \
              const T *kj = attend_bugs.k_dense ? k + ((b * p->n_k + j) * p->h_kv + g) * p->d               \
                                                : k + b * p->k_stride[0] + j * p->k_stride[1] + g * p->k_stride[2]; \
              T dot = 0;                                                                                 \
              for (int64_t x = 0; x < p->d; ++x) dot += qi[x] * kj[x];                                   \
              T sc = dot * scale;                                                                        \
              const int alibi = p->alibi && !attend_bugs.no_alibi;                                       \
              const T bias = alibi ? (T)p->alibi[h] * (T)(j - pos) : (T)0;                               \
              const int capped = cap > 0 && !attend_bugs.no_softcap;                                     \
              const T beta = (T)attend_bias(p, b, i, j);                                                 \
              if (capped && attend_bugs.mask_before_cap) sc += beta;                                     \
              if (capped && attend_bugs.softcap_swish) sc = sc / cap * TANH(sc / cap);                   \
              else if (capped && attend_bugs.cap_after_bias) sc = cap * TANH((sc + bias) / cap);         \
              else if (capped) sc = cap * TANH(sc / cap);                                                \
              if (alibi && !(capped && attend_bugs.cap_after_bias)) sc += bias;                          \
              if (p->bias && !(capped && attend_bugs.mask_before_cap)) sc += beta;                       \
              s[j - j0] = sc;                                                                            \
              if (!any || sc > mt) mt = sc;                                                              \
              any = 1;                                                                                   \
            }                                                                                            \
            if (!any) continue;                                                                          \
            const T mn = mt > m ? mt : m;                                                                \
            const T corr = m == -(T)INFINITY ? (T)0 : EXP(m - mn);                                       \
            l *= corr;                                                                                   \
            for (int64_t c = 0; c < p->d_v; ++c) o[c] = ACC(o[c] * corr);                               \
            for (int64_t j = j0; j < j1; ++j) {                                                          \
              if (!attend_visible(p, b, i, j)) continue;                                                 \
              const T *vj = v + b * p->v_stride[0] + j * p->v_stride[1] + g * p->v_stride[2];            \
              const T e = EXP(s[j - j0] - mn);                                                           \
              l += e;                                                                                    \
              for (int64_t c = 0; c < p->d_v; ++c) o[c] = ACC(o[c] + e * vj[c]);                        \
            }                                                                                            \
            m = mn;                                                                                      \
          }                                                                                              \
          /* an empty row (no visible key, no sink): the declared convention, lse -infinity */         \
          for (int64_t c = 0; c < p->d_v; ++c)                                                           \
            o[c] = l != 0 ? o[c] / l : PV_ATTEND_EMPTY == PV_EMPTY_NAN ? (T)NAN : (T)0;                  \
          if (lse)                                                                                       \
            lse[(b * p->h_q + h) * p->n_q + i] =                                                         \
                l != 0 ? ((double)m + (double)LOG(l)) * (attend_bugs.lse_log2 ? 1.4426950408889634 : 1.0) : -INFINITY; \
        }                                                                                                \
      }                                                                                                  \
  }

/* ACC rounds what the p v accumulator holds: as it is, or to float16 (a mutant) */
#define PV_ATTEND_ACC_SAME(x) (x)
#define PV_ATTEND_ACC_F16(x) ((float)(_Float16)(x))

PV_ATTEND_KERNEL(attend_f32, float, expf, tanhf, logf, sqrtf, PV_ATTEND_ACC_SAME)
PV_ATTEND_KERNEL(attend_f64, double, exp, tanh, log, sqrt, PV_ATTEND_ACC_SAME)

/* float16 and bfloat16 storage (PV_ATTEND_DTYPES): q, k and v widened to
 * float, the float kernel above, each output row rounded to nearest even
 * (builtin/sixteen_bit.h); the memory between out's rows is not touched.
 * attend_span: the elements a strided [batch][n][heads][last] tensor spans. */
static size_t attend_span(const int64_t *s, int64_t batch, int64_t n, int64_t heads, int64_t last) {
  if (batch <= 0 || n <= 0 || heads <= 0 || last <= 0) return 0;
  return (size_t)((batch - 1) * s[0] + (n - 1) * s[1] + (heads - 1) * s[2] + last);
}

static float *attend_widen(pv_dtype t, const void *x, size_t n) {
  float *f = malloc((n ? n : 1) * sizeof *f);
  if (f)
    for (size_t i = 0; i < n; ++i) f[i] = pv_from16(t, ((const uint16_t *)x)[i]);
  return f;
}

#ifdef PV_ATTEND_F16_ARITH
/* the mutant attend_f16_arith: float16 storage computed in float16 too */
PV_ATTEND_KERNEL(attend_h, _Float16, expf, tanhf, logf, sqrtf, PV_ATTEND_ACC_SAME)
#endif
#ifdef PV_ATTEND_PV_F16
/* the mutant attend_f16_pv_overflow: scores and sums in float, the p v
 * accumulator (its rescaling and each addition) rounded to float16 */
PV_ATTEND_KERNEL(attend_pv16, float, expf, tanhf, logf, sqrtf, PV_ATTEND_ACC_F16)
#endif

static int attend_16(pv_dtype t, const pv_attention_problem *p, const void *q, const void *k, const void *v, void *out,
                     double *lse) {
#ifdef PV_ATTEND_F16_ARITH
  if (t == PV_F16) {
    attend_h(p, q, k, v, out, lse);
    return 0;
  }
#endif
  const size_t nq = attend_span(p->q_stride, p->batch, p->n_q, p->h_q, p->d),
               nk = attend_span(p->k_stride, p->batch, p->n_k, p->h_kv, p->d),
               nv = attend_span(p->v_stride, p->batch, p->n_k, p->h_kv, p->d_v),
               no = attend_span(p->out_stride, p->batch, p->n_q, p->h_q, p->d_v);
  float *fq = attend_widen(t, q, nq), *fk = attend_widen(t, k, nk), *fv = attend_widen(t, v, nv),
        *fo = malloc((no ? no : 1) * sizeof(float));
  int rc = 3;
  if (fq && fk && fv && fo) {
#ifdef PV_ATTEND_PV_F16
    if (t == PV_F16) attend_pv16(p, fq, fk, fv, fo, lse);
    else
#endif
      attend_f32(p, fq, fk, fv, fo, lse);
    for (int64_t b = 0; b < p->batch; ++b)
      for (int64_t i = 0; i < p->n_q; ++i)
        for (int64_t h = 0; h < p->h_q; ++h) {
          const int64_t at = b * p->out_stride[0] + i * p->out_stride[1] + h * p->out_stride[2];
          for (int64_t c = 0; c < p->d_v; ++c) ((uint16_t *)out)[at + c] = pv_to16(t, fo[at + c]);
        }
    rc = 0;
  }
  free(fq), free(fk), free(fv), free(fo);
  return rc;
}

static int attend_batch(pv_dtype t, const pv_attention_problem *p, const void *q, const void *k, const void *v,
                        void *out, double *lse) {
  if (t == PV_F32) attend_f32(p, q, k, v, out, lse);
  else if (t == PV_F64) attend_f64(p, q, k, v, out, lse);
  else if ((t == PV_F16 || t == PV_BF16) && (PV_ATTEND_DTYPES >> t & 1)) return attend_16(t, p, q, k, v, out, lse);
  else return 1;
  return 0;
}

/* packed items (PV_ATTEND_VARLEN): each item a batch of one over its own
 * tokens (its offsets cut the sequence; its log-sum-exp rows scattered to
 * [h_q][n_q]) */
static int attend_items(pv_dtype t, const pv_attention_problem *p, const void *q, const void *k, const void *v,
                        void *out, double *lse) {
  const size_t es = t == PV_F64 ? 8 : t == PV_F32 ? 4 : 2;
  const int64_t *cq = p->cu_seqlens_q, *ck = attend_bugs.varlen_k_from_q ? p->cu_seqlens_q : p->cu_seqlens_k;
  for (int64_t b = 0; b < p->batch; ++b) {
    pv_attention_problem it = *p;
    int64_t k1 = ck[b + 1] < p->n_k ? ck[b + 1] : p->n_k, k0 = ck[b] < k1 ? ck[b] : k1;
    it.batch = 1;
    it.n_q = cq[b + 1] - cq[b];
    it.n_k = k1 - k0;
    const int64_t kl = p->k_len[b] < it.n_k ? p->k_len[b] : it.n_k;
    it.q_start = p->q_start + b;
    it.k_len = &kl;
    it.cu_seqlens_q = it.cu_seqlens_k = NULL;
    if (it.n_q <= 0) continue;
    double *l = lse ? malloc((size_t)(p->h_q * it.n_q) * sizeof *l) : NULL;
    if (lse && !l) return 3;
    const int rc = attend_batch(t, &it, (const char *)q + (size_t)(cq[b] * p->q_stride[1]) * es,
                                (const char *)k + (size_t)(k0 * p->k_stride[1]) * es,
                                (const char *)v + (size_t)(k0 * p->v_stride[1]) * es,
                                (char *)out + (size_t)(cq[b] * p->out_stride[1]) * es, l);
    if (l && rc == 0)
      for (int64_t h = 0; h < p->h_q; ++h)
        for (int64_t i = 0; i < it.n_q; ++i) lse[h * p->n_q + cq[b] + i] = l[h * it.n_q + i];
    free(l);
    if (rc) return rc;
  }
  return 0;
}

static int attend(pv_dtype t, const pv_attention_problem *p, const void *q, const void *k, const void *v, void *out,
                  double *lse) {
  if (p->h_kv <= 0 || p->h_q % p->h_kv != 0) return 2;
  if (p->cu_seqlens_q && p->cu_seqlens_k) return attend_items(t, p, q, k, v, out, lse);
  return attend_batch(t, p, q, k, v, out, lse);
}

#ifndef PV_ATTEND_NAME
#define PV_ATTEND_NAME "builtin-attend-tiled"
#endif

static const pv_impl attend_impl = {
    .abi_version = PV_ATTEND_DTYPES ? 5 : 4,
    .name = PV_ATTEND_NAME,
    .attend = attend,
    .attend_caps = PV_ATTEND_CAUSAL | PV_ATTEND_WINDOW | PV_ATTEND_PADDING | PV_ATTEND_GQA | PV_ATTEND_SOFTCAP |
                   PV_ATTEND_SINKS | PV_ATTEND_ALIBI | PV_ATTEND_LSE | PV_ATTEND_FIXED_SCHEDULE | PV_ATTEND_BIAS |
                   PV_ATTEND_VARLEN,
    .attend_empty_rows = PV_ATTEND_DECLARED_EMPTY,
    .dtypes = PV_ATTEND_DTYPES,
};
const pv_impl *posverify_impl(void) { return &attend_impl; }
