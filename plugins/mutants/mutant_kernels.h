/* The mutation suite's shared kernels: correct attention, RoPE and sinusoid
 * (computed in double, stored in the call's dtype) with switches that plant one
 * of the real failure classes. A mutant file defines PV_MUTANT_NAME and one of
 * PV_ATT_BUGS / PV_ROPE_BUGS / PV_SIN_BUGS (a designated initializer), then
 * includes this header; the plugin provides only the mutated function. */
#ifndef PV_MUTANT_KERNELS_H_
#define PV_MUTANT_KERNELS_H_

#include "posverify/impl.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct att_bugs {
  int no_scale;      /* forgets 1/sqrt(d) */
  int causal;        /* masks keys j > i */
  int no_max_sub;    /* exp of raw scores (in the working type) */
  int write_past;    /* writes one entry past out */
  int crash;         /* segfaults when n_q >= 5 */
  int hang;          /* never returns when n_k == 7 (blocked, as a deadlock) */
  int nan_input;     /* divides by zero when d_v == 3 */
  int writes_input;  /* scales q in place */
  int short_denominator;  /* the softmax denominator skips the last key */
} att_bugs;

typedef struct rope_bugs {
  int pairs_swapped;       /* uses the other pair convention */
  int half_exponent;       /* speeds theta^(-k/dim) instead of theta^(-2k/dim) */
  int ignores_theta;       /* always base 10000 */
  int sine_sign;           /* x'_b = x_b cos - x_a sin */
  int pos_offset;          /* uses m + 1 */
  int pos_bits;            /* rounds positions to 8 (bfloat16) or 11 (float16) bits */
  int axes_swapped;        /* reads the column for the row axis and vice versa */
  int split_reversed;      /* places the axis blocks in reverse order */
  int ladder_not_reset;    /* one ladder over the whole head instead of one per axis */
  int table_edge;          /* reads the entry before at positions 2^k - 1, k >= 6 (the last
                              entry of each table segment): right everywhere else */
  int tail_unrotated;      /* rows in tiles of 16: the last tile, when partial and not the
                              first, is left unrotated (a tail loop forgotten) */
} rope_bugs;

typedef struct sin_bugs {
  int swapped;        /* (cos, sin) instead of (sin, cos) */
  int half_exponent;  /* base^(-i/d) */
  int tail_arange;    /* rows in tiles of 16: the last tile, when partial and not the first,
                         takes row r at position r (a tail loop that assumes 0, 1, 2, ...) */
} sin_bugs;

static inline double pv_ld(pv_dtype t, const void *p, int64_t i) {
  return t == PV_F32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}
static inline void pv_st(pv_dtype t, void *p, int64_t i, double x) {
  if (t == PV_F32) ((float *)p)[i] = (float)x;
  else ((double *)p)[i] = x;
}

static inline double pv_round_bits(double x, int bits) {
  if (x == 0 || !isfinite(x)) return x;
  if (bits == 11 && fabs(x) > 65504) return x > 0 ? INFINITY : -INFINITY;  /* float16 overflow */
  int e;
  double m = frexp(x, &e);
  double s = ldexp(1.0, bits);
  return ldexp(nearbyint(m * s) / s, e);
}

static inline int mut_attention(const att_bugs *b, pv_dtype t, const void *q, const void *k,
                         const void *v, int64_t n_q, int64_t n_k, int64_t d, int64_t d_v,
                         void *out) {
  if (t != PV_F32 && t != PV_F64) return 1;  /* no 16-bit dtypes */
  if (n_q < 0 || n_k < 1 || d < 1 || d_v < 0) return 2;
  if (b->crash && n_q >= 5) *(volatile int *)0 = 1;
  if (b->hang && n_k == 7) {
    /* Blocked rather than spinning, as a kernel waiting on a lock or a barrier
     * that never comes: the sandbox kills it after the time limit either way,
     * and a spinning one burnt a core for every hung law (about 20 of the
     * mutation suite's 170 CPU s at the default 2000 ms). A spinning kernel
     * is killed in tests/sandbox/sandbox_test.cpp (the hostile plugin spin). */
    for (;;) pause();
  }
  double *e = malloc((size_t)n_k * sizeof *e);
  if (!e) return 3;
  const double scale = b->no_scale ? 1.0 : 1.0 / sqrt((double)d);
  for (int64_t i = 0; i < n_q; ++i) {
    const int64_t lim = b->causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k;
    double m = -INFINITY, z = 0;
    for (int64_t j = 0; j < n_k; ++j) {
      double s = 0;
      for (int64_t l = 0; l < d; ++l) s += pv_ld(t, q, i * d + l) * pv_ld(t, k, j * d + l);
      e[j] = s * scale;
      if (j < lim && e[j] > m) m = e[j];
    }
    if (b->no_max_sub) m = 0;
    for (int64_t j = 0; j < n_k; ++j) {
      double x = e[j] - m;
      e[j] = j >= lim ? 0 : (t == PV_F32 ? (double)expf((float)x) : exp(x));
      if (!(b->short_denominator && j == n_k - 1 && n_k > 1)) z += e[j];
    }
    if (t == PV_F32) z = (float)z;
    if (b->nan_input && d_v == 3) z = 0;
    for (int64_t c = 0; c < d_v; ++c) {
      double acc = 0;
      for (int64_t j = 0; j < n_k; ++j) acc += e[j] * pv_ld(t, v, j * d_v + c);
      pv_st(t, out, i * d_v + c, acc / z);
    }
  }
  free(e);
  if (b->write_past && n_q * d_v > 0) pv_st(t, out, n_q * d_v, pv_ld(t, out, 0));
  if (b->writes_input) pv_st(t, (void *)q, 0, 2 * pv_ld(t, q, 0));
  return 0;
}

static inline int mut_rope(const rope_bugs *b, pv_dtype t, const pv_rope_config *cfg, const double *pos,
                    int64_t n, void *x) {
  if (t != PV_F32 && t != PV_F64) return 1;
  if (!cfg || cfg->head_dim <= 0 || cfg->head_dim % 2 || cfg->n_axes < 1 || cfg->n_axes > 4) return 2;
  if (pv_rope_config_version(cfg) != 1) return 1;  /* plain RoPE only */
  const int na = cfg->n_axes;
  const int64_t rows = b->tail_unrotated && n > 16 ? n / 16 * 16 : n;
  for (int64_t r = 0; r < rows; ++r) {
    for (int a = 0; a < na; ++a) {
      int off = 0;
      if (b->split_reversed)
        for (int c = a + 1; c < na; ++c) off += cfg->axes_dim[c];
      else
        for (int c = 0; c < a; ++c) off += cfg->axes_dim[c];
      int true_off = 0;
      for (int c = 0; c < a; ++c) true_off += cfg->axes_dim[c];
      int src = a;
      if (b->axes_swapped && na >= 3 && (a == 1 || a == 2)) src = 3 - a;
      double m = pos[r * na + src];
      if (b->pos_offset) m += 1;
      if (b->table_edge && m >= 63 && m == floor(m) && (((int64_t)m + 1) & (int64_t)m) == 0) m -= 1;
      if (b->pos_bits) m = pv_round_bits(m, b->pos_bits);
      const int dim = cfg->axes_dim[a];
      pv_pairing p = cfg->pairing;
      if (b->pairs_swapped) p = p == PV_PAIRS_ADJACENT ? PV_PAIRS_HALVES : PV_PAIRS_ADJACENT;
      const double base = b->ignores_theta ? 10000.0 : cfg->theta;
      for (int k = 0; k < dim / 2; ++k) {
        double ex = (b->half_exponent ? -1.0 : -2.0) * k / dim;
        if (b->ladder_not_reset) ex = -2.0 * (k + true_off / 2) / cfg->head_dim;
        const double w = pow(base, ex), ang = m * w, c = cos(ang), s = sin(ang);
        int ia, ib;
        if (p == PV_PAIRS_ADJACENT) {
          ia = off + 2 * k;
          ib = ia + 1;
        } else {
          ia = off + k;
          ib = off + k + dim / 2;
        }
        const int64_t base_i = r * cfg->head_dim;
        const double xa = pv_ld(t, x, base_i + ia), xb = pv_ld(t, x, base_i + ib);
        pv_st(t, x, base_i + ia, xa * c - xb * s);
        pv_st(t, x, base_i + ib, b->sine_sign ? xb * c - xa * s : xa * s + xb * c);
      }
    }
  }
  return 0;
}

static inline int mut_sinusoid(const sin_bugs *b, pv_dtype t, int64_t d, double base, const double *pos,
                        int64_t n, void *out) {
  if (t != PV_F32 && t != PV_F64) return 1;
  if (d <= 0 || d % 2) return 2;
  const int64_t full = b->tail_arange && n > 16 ? n / 16 * 16 : n;
  for (int64_t r = 0; r < n; ++r)
    for (int64_t i = 0; i < d / 2; ++i) {
      const double ex = (b->half_exponent ? -1.0 : -2.0) * (double)i / (double)d;
      const double ang = (r < full ? pos[r] : (double)r) * pow(base, ex);
      pv_st(t, out, r * d + 2 * i, b->swapped ? cos(ang) : sin(ang));
      pv_st(t, out, r * d + 2 * i + 1, b->swapped ? sin(ang) : cos(ang));
    }
  return 0;
}

#ifdef PV_ATT_BUGS
static const att_bugs the_att_bugs = PV_ATT_BUGS;
static int attention(pv_dtype t, const void *q, const void *k, const void *v, int64_t n_q,
                     int64_t n_k, int64_t d, int64_t d_v, void *out) {
  return mut_attention(&the_att_bugs, t, q, k, v, n_q, n_k, d, d_v, out);
}
#define PV_ATT_FN attention
#else
#define PV_ATT_FN NULL
#endif

#ifdef PV_ROPE_BUGS
static const rope_bugs the_rope_bugs = PV_ROPE_BUGS;
static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *x) {
  return mut_rope(&the_rope_bugs, t, cfg, pos, n, x);
}
#define PV_ROPE_FN rope
#else
#define PV_ROPE_FN NULL
#endif

#ifdef PV_SIN_BUGS
static const sin_bugs the_sin_bugs = PV_SIN_BUGS;
static int sinusoid(pv_dtype t, int64_t d, double base, const double *pos, int64_t n, void *out) {
  return mut_sinusoid(&the_sin_bugs, t, d, base, pos, n, out);
}
#define PV_SIN_FN sinusoid
#else
#define PV_SIN_FN NULL
#endif

static const pv_impl the_impl = {PV_ABI_VERSION, PV_MUTANT_NAME, PV_ATT_FN, PV_ROPE_FN, PV_SIN_FN, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &the_impl; }

#endif
