/* Panel member: attention the way tiled GPU kernels are written
 * (FlashAttention-2 forward, FlashDecoding's split-K): keys are visited in
 * tiles of 64 with an online softmax (running maximum m, running sum l, the
 * accumulator and l rescaled by exp(m_old - m_new) when the maximum grows);
 * from n_k >= 128 on the keys are split into two halves, each half computes
 * its own (m, l, acc), and the halves are combined with the weights
 * exp(m_p - M). Arithmetic in double, results stored in the call's dtype.
 * float32 and float64 only.
 *
 * Its wrong siblings (plugins/mutants/size_*.c) switch on one bug
 * each, a bug that lives only at sizes the small laws never draw:
 *   PV_BUG_DROP_PAST_TILE   keys past the first tile of 64 are dropped;
 *   PV_BUG_PARTIAL_TILE     the last tile, when partial and not the first,
 *                           loses its last key (a loop bound off by one);
 *   PV_BUG_NAN_ON_TIES      a score equal to the running maximum (an exact
 *                           tie) makes the row NaN;
 *   PV_BUG_CRASH_ABOVE      segfault once n_q n_k > 4096;
 *   PV_BUG_NO_RESCALE       l is not rescaled when the maximum grows;
 *   PV_BUG_SPLIT_WEIGHTS    the split-K combine adds the halves' sums
 *                           without the exp(m_p - M) weights;
 *   PV_BUG_PREFILL_GRID     query rows in blocks of 64, a grid of
 *                           floor(n_q / 64) blocks once n_q > 64: the rows
 *                           past the last full block are never written. */
#include "posverify/impl.h"

#include <math.h>
#include <stdlib.h>

enum { TILE = 64, SPLIT_FROM = 128 };

#ifndef PV_BUG
#define PV_BUG 0
#endif
#define PV_BUG_DROP_PAST_TILE 1
#define PV_BUG_PARTIAL_TILE 2
#define PV_BUG_NAN_ON_TIES 3
#define PV_BUG_CRASH_ABOVE 4
#define PV_BUG_NO_RESCALE 5
#define PV_BUG_SPLIT_WEIGHTS 6
#define PV_BUG_PREFILL_GRID 7

static double ld(pv_dtype t, const void *p, int64_t i) {
  return t == PV_F32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

/* The online softmax of query row i over keys [j0, j1): m, l and acc[d_v]. */
static void part(pv_dtype t, const void *q, const void *k, const void *v, int64_t i, int64_t j0, int64_t j1,
                 int64_t d, int64_t d_v, double *m_out, double *l_out, double *acc, int *tie) {
  const double scale = 1.0 / sqrt((double)d);
  double m = -INFINITY, l = 0;
  for (int64_t c = 0; c < d_v; ++c) acc[c] = 0;
  for (int64_t t0 = j0; t0 < j1; t0 += TILE) {
    if (PV_BUG == PV_BUG_DROP_PAST_TILE && t0 >= TILE) break;
    int64_t t1 = t0 + TILE < j1 ? t0 + TILE : j1;
    if (PV_BUG == PV_BUG_PARTIAL_TILE && t1 - t0 < TILE && t0 > j0) --t1;
    double s[TILE], bm = m;
    for (int64_t j = t0; j < t1; ++j) {
      double dot = 0;
      for (int64_t x = 0; x < d; ++x) dot += ld(t, q, i * d + x) * ld(t, k, j * d + x);
      s[j - t0] = dot * scale;
      if (PV_BUG == PV_BUG_NAN_ON_TIES && s[j - t0] == bm) *tie = 1;
      if (s[j - t0] > bm) bm = s[j - t0];
    }
    const double alpha = exp(m - bm); /* 0 on the first tile */
    if (PV_BUG != PV_BUG_NO_RESCALE) l *= alpha;
    for (int64_t c = 0; c < d_v; ++c) acc[c] *= alpha;
    for (int64_t j = t0; j < t1; ++j) {
      const double p = exp(s[j - t0] - bm);
      l += p;
      for (int64_t c = 0; c < d_v; ++c) acc[c] += p * ld(t, v, j * d_v + c);
    }
    m = bm;
  }
  *m_out = m;
  *l_out = l;
}

static int attention(pv_dtype t, const void *q, const void *k, const void *v, int64_t n_q, int64_t n_k, int64_t d,
                     int64_t d_v, void *out) {
  if (t != PV_F32 && t != PV_F64) return 1;
  if (n_q < 0 || n_k < 1 || d < 1 || d_v < 0) return 2;
  if (PV_BUG == PV_BUG_CRASH_ABOVE && n_q * n_k > 4096) *(volatile int *)0 = 1;
  double *acc = malloc((size_t)(2 * (d_v ? d_v : 1)) * sizeof *acc);
  if (!acc) return 3;
  double *acc1 = acc + (d_v ? d_v : 1);
  const int64_t rows = PV_BUG == PV_BUG_PREFILL_GRID && n_q > TILE ? n_q / TILE * TILE : n_q;
  for (int64_t i = 0; i < rows; ++i) {
    int tie = 0;
    double m0, l0, m1 = -INFINITY, l1 = 0;
    const int split = n_k >= SPLIT_FROM;
    const int64_t h = split ? n_k / 2 : n_k;
    part(t, q, k, v, i, 0, h, d, d_v, &m0, &l0, acc, &tie);
    if (split) part(t, q, k, v, i, h, n_k, d, d_v, &m1, &l1, acc1, &tie);
    const double M = m0 > m1 ? m0 : m1;
    double w0 = exp(m0 - M), w1 = split ? exp(m1 - M) : 0;
    if (PV_BUG == PV_BUG_SPLIT_WEIGHTS && split) w0 = w1 = 1;
    const double z = w0 * l0 + w1 * l1;
    for (int64_t c = 0; c < d_v; ++c) {
      const double o = tie ? NAN : (w0 * acc[c] + (split ? w1 * acc1[c] : 0)) / z;
      if (t == PV_F32) ((float *)out)[i * d_v + c] = (float)o;
      else ((double *)out)[i * d_v + c] = o;
    }
  }
  free(acc);
  return 0;
}

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "attn_tiled_split"
#endif
static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, attention, NULL, NULL, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
