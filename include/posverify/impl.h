/* posverify/impl.h: the C interface through which `posverify check --impl
 * LIB.so` calls an implementation of attention, RoPE and the additive
 * sinusoid. A plugin is a shared library exporting one symbol,
 * posverify_impl(), returning a pointer to a static pv_impl.
 *
 * Each function returns 0 on success, 1 for "this dtype or configuration is
 * not supported", anything else for an error. A NULL function pointer means
 * "not provided": those laws are reported as not run. Buffers are row-major
 * arrays of float (PV_F32) or double (PV_F64); inputs must not be written.
 * Version 6 of the ABI: plugins declaring versions 1 to 5 keep loading; they
 * are never called with a configuration that needs version 3 (partial rotary,
 * M-RoPE, scaled speeds: see pv_rope_config_version) when they declare less,
 * and such laws are reported "unsupported" for them (docs/rope-configs.md).
 * Version 4 adds `attend`, attention as models ship it (heads, GQA, masks,
 * padding, softcap, sinks, ALiBi, LSE: docs/check.md, "The attention call").
 * Version 5 adds `dtypes`: the 16-bit dtypes a plugin takes are declared
 * there; versions 2 to 4 implied them, so a version-1 kernel rebuilt against
 * a newer header (and reading "not float32" as double) was sent float16 and
 * bfloat16 buffers. Now no plugin is sent a 16-bit dtype it does not declare.
 * Version 6 adds `rope_caps`: the RoPE configurations of version 3 (partial
 * rotary, M-RoPE, scaled speeds) a plugin rotates by are declared there;
 * versions 3 to 5 implied all three, so a version-1 RoPE rebuilt against a
 * newer header (and turning by the plain ladder whatever the scaling) was sent
 * them. A version-6 plugin is sent only what it declares.
 * Version 7 appends two members to pv_rope_config: rotary_offset (the rotated
 * block elsewhere than the first R components, e.g. the last R as MLA's
 * rope part) and per-pair frequency factors (llama.cpp's rope_freqs,
 * LongRoPE's short and long factors). A configuration using them needs
 * version 7 and the declaration PV_ROPE_ROTARY_OFFSET or PV_ROPE_FREQ_FACTORS:
 * a plugin of an older header never receives a struct it cannot read.
 * A function added to the interface is appended at the end of pv_impl under
 * a new version: a plugin is never read past the members of the version it
 * declares. A capability is declared by a non-zero member, never implied by
 * the version: a plugin rebuilt against a newer header (PV_ABI_VERSION in its
 * initializer) declares nothing new. */
#ifndef POSVERIFY_IMPL_H_
#define POSVERIFY_IMPL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PV_ABI_VERSION 7
typedef enum pv_dtype { PV_F32 = 0, PV_F64 = 1, PV_F16 = 2, PV_BF16 = 3 } pv_dtype;
/* version 5: a bit of pv_impl.dtypes, e.g. PV_DTYPE_BIT(PV_F16) | PV_DTYPE_BIT(PV_BF16).
 * float32 and float64 are always offered (a kernel returns 1 for those it
 * does not take); float16 and bfloat16 only when declared. */
#define PV_DTYPE_BIT(t) (1u << (t))
typedef enum pv_pairing { PV_PAIRS_ADJACENT = 0, PV_PAIRS_HALVES = 1 } pv_pairing;
/* version 6: bits of pv_impl.rope_caps, the configurations of version 3 a
 * RoPE kernel rotates by (pv_rope_config below) */
enum pv_rope_capability {
  PV_ROPE_PARTIAL = 1, /* axes_dim summing to R < head_dim: the rest passes through */
  PV_ROPE_MROPE = 2,   /* mrope = 1 */
  PV_ROPE_SCALED = 4,  /* scaling.kind != PV_SCALE_NONE (every kind) */
  /* Not a configuration but how dynamic NTK is computed: the kernel takes the
   * sequence length L from the call's positions (1 + the largest, as Hugging
   * Face's dynamic update does, whether or not it caches the longest length
   * seen), not from scaling.length. posverify then sends a dynamic-NTK call
   * positions below L only, plus one row at position L - 1 whose output it
   * does not read, so that the call stands for the configuration's L
   * (docs/rope-configs.md, "The sequence length of dynamic NTK"). */
  PV_ROPE_LENGTH_FROM_POSITIONS = 8,
  /* version 7: rotary_offset != 0 (the rotated block does not start at component 0) */
  PV_ROPE_ROTARY_OFFSET = 16,
  /* version 7: n_freq_factors != 0 (pair k's speed divided by freq_factors[k]) */
  PV_ROPE_FREQ_FACTORS = 32
};
/* version 7: the most per-pair frequency factors (head_dim 256) */
#define PV_MAX_FREQ_FACTORS 128
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
  /* version 7 (all zero for the configurations of versions 1 to 3): */
  int32_t rotary_offset;   /* the R rotated components are rotary_offset ..
                              rotary_offset + R - 1, the others pass through
                              (head_dim - R: the last R, as MLA's rope part) */
  int32_t n_freq_factors;  /* 0, or R/2: pair k of the ladder turns at
                              w_k / freq_factors[k] (after the scaling) */
  double freq_factors[PV_MAX_FREQ_FACTORS];
} pv_rope_config;

/* 7 when cfg needs version 7 of the ABI (a rotary offset or frequency
 * factors), 3 when it needs version 3 (partial rotary, M-RoPE or scaled
 * speeds), else 1. */
static inline int pv_rope_config_version(const pv_rope_config *cfg) {
  int32_t sum = 0;
  for (int a = 0; a < cfg->n_axes && a < 4; ++a) sum += cfg->axes_dim[a];
  if (cfg->rotary_offset || cfg->n_freq_factors) return 7;
  return sum != cfg->head_dim || cfg->mrope || cfg->scaling.kind ? 3 : 1;
}
/* version 4: attend(), attention over a problem description.
 *
 * Tensors: q[batch][n_q][h_q][d], k[batch][n_k][h_kv][d], v[batch][n_k][h_kv][d_v],
 * out[batch][n_q][h_q][d_v], each addressed through its strides (in elements)
 * for (batch, token, head); the last dimension is contiguous. Memory between
 * strides is not the kernel's to read (posverify fills it with NaN).
 *
 * Query i of batch item b sits at position p = q_start[b] + i, key j at
 * position j (0 <= j < n_k). Key j is visible to that query when
 *   j < k_len[b]                              (padding: later keys are not read)
 *   and, if causal, j <= p
 *   and j >= p - window_left  (if window_left >= 0)
 *   and j <= p + window_right (if window_right >= 0)
 *   and, with an explicit bias, bias[b'][i][j] != -infinity (below).
 * Top-left causal alignment is q_start = 0, bottom-right (FlashAttention >= 2.1,
 * vLLM) q_start = n_k - n_q, decoding against a cache of L keys q_start = L.
 * Query head h reads KV head floor(h * h_kv / h_q) (h_q a multiple of h_kv).
 *
 * The logit of a visible key: x = scale * (q . k_j) (scale 0: 1/sqrt(d)),
 * then softcap c > 0: s = c tanh(x / c) (else s = x), then ALiBi:
 * s += alibi[h] * (j - p), then an explicit additive bias (when bias is not
 * NULL): s += bias[b'][i][j], b' = b when bias_batch is batch, 0 when it is 1
 * (one [n_q][n_k] bias for every item), the same for every head; a bias of
 * -infinity masks the key like the rules above (its weight is exactly 0, its
 * K and V rows are not read into the row). Weights p_j = exp(s_j) / Z with
 * Z = sum over visible keys of exp(s_j), plus exp(sink[h]) when sinks are
 * given (a sink adds to the denominator only). Invisible keys have weight 0.
 * out = sum_j p_j v_j; lse (when not NULL) = ln Z, natural log, one per
 * (b, h, i), dense [batch][h_q][n_q], in double.
 *
 * A row with no visible key and no sink is empty: its output is the declared
 * empty-row convention (attend_empty_rows), its lse -infinity. */
enum pv_attend_capability {
  PV_ATTEND_CAUSAL = 1u << 0,   /* causal != 0 */
  PV_ATTEND_WINDOW = 1u << 1,   /* window_left or window_right >= 0 */
  PV_ATTEND_PADDING = 1u << 2,  /* some k_len[b] < n_k */
  PV_ATTEND_GQA = 1u << 3,      /* h_kv < h_q */
  PV_ATTEND_SOFTCAP = 1u << 4,  /* softcap > 0 */
  PV_ATTEND_SINKS = 1u << 5,    /* sink != NULL */
  PV_ATTEND_ALIBI = 1u << 6,    /* alibi != NULL */
  PV_ATTEND_LSE = 1u << 7,      /* lse != NULL */
  /* Not a configuration but a declaration: the kernel's schedule (how it
   * splits, tiles and orders the sums of a row) depends only on that row's
   * own problem -- its keys, mask, d, d_v, scale and dtype -- never on the
   * batch size, the number of heads or queries, the other items or a run's
   * timing, so a row has the same bits in any call that holds it (batch
   * invariance, deterministic inference). No call needs it; the laws that
   * compare calls of different batch sizes are bitwise for a kernel that
   * declares it and within the bound otherwise (attend.batch_invariance). */
  PV_ATTEND_FIXED_SCHEDULE = 1u << 8,
  /* An explicit additive bias or keep-mask (bias != NULL): a plugin built
   * against an older header never declares it and is never sent one. */
  PV_ATTEND_BIAS = 1u << 9,
  /* Packed variable-length items (cu_seqlens_q != NULL, below): the same
   * rule; never sent with a bias. */
  PV_ATTEND_VARLEN = 1u << 10
};
/* What an empty row holds: 0 undeclared (posverify never sends a call with an
 * empty row), zeros, NaN, or the mean of the valid values V[b][0..k_len-1]
 * (what an additive finfo.min mask gives). */
typedef enum pv_empty_rows {
  PV_EMPTY_UNDECLARED = 0,
  PV_EMPTY_ZEROS = 1,
  PV_EMPTY_NAN = 2,
  PV_EMPTY_MEAN = 3
} pv_empty_rows;
typedef struct pv_attention_problem {
  int64_t batch, h_q, h_kv, n_q, n_k, d, d_v;
  int64_t q_stride[3];    /* elements between batch items, tokens, heads of q */
  int64_t k_stride[3];
  int64_t v_stride[3];
  int64_t out_stride[3];
  const int64_t *q_start; /* [batch]: the position of query 0 */
  const int64_t *k_len;   /* [batch]: the valid keys, 0..k_len[b]-1 (n_k: no padding) */
  int32_t causal;         /* 1: key j visible only when j <= p */
  int32_t reserved;       /* 0 */
  int64_t window_left;    /* inclusive; negative: unbounded */
  int64_t window_right;   /* inclusive; negative: unbounded */
  double scale;           /* 0: 1/sqrt(d) */
  double softcap;         /* c > 0: s -> c tanh(s/c) after the scale; 0: off */
  const double *sink;     /* [h_q] sink logits, or NULL */
  const double *alibi;    /* [h_q] ALiBi slopes, or NULL */
  /* PV_ATTEND_BIAS: [bias_batch][n_q][n_k] dense, added to the logits after
   * the softcap and ALiBi (-infinity: masked), broadcast over heads, and over
   * items when bias_batch is 1 (else it is batch); NULL and 0 without. */
  const double *bias;
  int64_t bias_batch;
  /* PV_ATTEND_VARLEN: the items packed end to end (FlashAttention's varlen
   * call, cu_seqlens), NULL without. Each is [batch + 1] ascending token
   * offsets from 0: the tensors hold one sequence of n_q = cu_seqlens_q[batch]
   * queries and n_k = cu_seqlens_k[batch] keys (their batch strides 0, not
   * used); item b's query i (0 <= i < cu_seqlens_q[b+1] - cu_seqlens_q[b]) is
   * token cu_seqlens_q[b] + i of q and out, its key j token
   * cu_seqlens_k[b] + j of k and v, with k_len[b] = cu_seqlens_k[b+1] -
   * cu_seqlens_k[b]; q_start[b], the masks and pv_attend_visible take the
   * item's own i and j as above. A key of another item is never visible.
   * lse, when asked for, is [h_q][n_q] (FlashAttention's [heads][total_q]). */
  const int64_t *cu_seqlens_q;
  const int64_t *cu_seqlens_k;
} pv_attention_problem;

/* 1 when key j is visible to query i of batch item b (the rule above). */
static inline int pv_attend_visible(const pv_attention_problem *p, int64_t b, int64_t i, int64_t j) {
  const int64_t pos = p->q_start[b] + i;
  if (j < 0 || j >= p->k_len[b] || j >= p->n_k) return 0;
  if (p->causal && j > pos) return 0;
  if (p->window_left >= 0 && j < pos - p->window_left) return 0;
  if (p->window_right >= 0 && j > pos + p->window_right) return 0;
  if (p->bias && p->bias[((p->bias_batch > 1 ? b : 0) * p->n_q + i) * p->n_k + j] < -1.7976931348623157e308)
    return 0; /* -infinity */
  return 1;
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
  /* version 4: attention over a problem description (above); lse NULL when
   * not asked for. A call needing a capability not in attend_caps (a
   * pv_attend_capability bit), or with an empty row while attend_empty_rows
   * is PV_EMPTY_UNDECLARED, is never made: the case is "unsupported". */
  int (*attend)(pv_dtype t, const pv_attention_problem *p, const void *q, const void *k, const void *v,
                void *out, double *lse);
  uint32_t attend_caps;        /* pv_attend_capability bits */
  uint32_t attend_empty_rows;  /* a pv_empty_rows */
  /* version 5: the 16-bit dtypes (PV_DTYPE_BIT of PV_F16, PV_BF16) every
   * function of this plugin is called with; 0: float32 and float64 only */
  uint32_t dtypes;
  /* version 6: the configurations of version 3 (pv_rope_capability bits)
   * rope() is called with; 0: plain RoPE only */
  uint32_t rope_caps;
} pv_impl;
const pv_impl *posverify_impl(void);   /* the one exported symbol */

#ifdef __cplusplus
}
#endif

#endif /* POSVERIFY_IMPL_H_ */
