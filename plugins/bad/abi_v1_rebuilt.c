/* A version-1-era kernel rebuilt against today's header (not bad: a loader
 * test). It was written when the interface had float32 and
 * float64 only, so it reads every dtype that is not float32 as double, and
 * its initializer lists the members of version 1 after PV_ABI_VERSION, as
 * most plugins write it. Rebuilt against the headers of versions 2 to 4, it
 * claimed their version and with it the 16-bit dtypes: it was sent float16
 * and bfloat16 buffers, read them as doubles and failed every 16-bit law,
 * though it is correct. The 16-bit dtypes are declared (`dtypes`, version 5),
 * never implied, so this kernel passes and is never sent one.
 * Attention, RoPE and the sinusoid, computed in double and rounded once. */
#include "posverify/impl.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

static double ld(pv_dtype t, const void *p, int64_t i) {
  return t == PV_F32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}
static void st(pv_dtype t, void *p, int64_t i, double x) {
  if (t == PV_F32) ((float *)p)[i] = (float)x;
  else ((double *)p)[i] = x;
}

static int attention(pv_dtype t, const void *q, const void *k, const void *v, int64_t n_q,
                     int64_t n_k, int64_t d, int64_t d_v, void *out) {
  double *s = malloc((size_t)(n_k > 0 ? n_k : 1) * sizeof *s);
  if (!s) return 2;
  for (int64_t i = 0; i < n_q; ++i) {
    double m = -INFINITY, z = 0;
    for (int64_t j = 0; j < n_k; ++j) {
      double a = 0;
      for (int64_t c = 0; c < d; ++c) a += ld(t, q, i * d + c) * ld(t, k, j * d + c);
      s[j] = a / sqrt((double)d);
      if (s[j] > m) m = s[j];
    }
    for (int64_t j = 0; j < n_k; ++j) z += (s[j] = exp(s[j] - m));
    for (int64_t c = 0; c < d_v; ++c) {
      double o = 0;
      for (int64_t j = 0; j < n_k; ++j) o += s[j] * ld(t, v, j * d_v + c);
      st(t, out, i * d_v + c, o / z);
    }
  }
  free(s);
  return 0;
}

static int sinusoid(pv_dtype t, int64_t d, double base, const double *pos, int64_t n, void *out) {
  for (int64_t r = 0; r < n; ++r)
    for (int64_t i = 0; i < d / 2; ++i) {
      const double a = pos[r] * pow(base, -2.0 * (double)i / (double)d);
      st(t, out, r * d + 2 * i, sin(a));
      st(t, out, r * d + 2 * i + 1, cos(a));
    }
  return 0;
}

/* RoPE as version 1 knew it: one plain ladder theta^(-2k/axes_dim[a]) per
 * axis, in double. It never heard of the members of version 3 (scaling,
 * M-RoPE) and turns by the plain ladder whatever they say: rebuilt against
 * the headers of versions 3 to 5 it claimed their configurations, was sent
 * llama3 and YaRN speeds and failed them. They are declared (`rope_caps`,
 * version 6), never implied, so it is sent plain configurations only. */
static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *x) {
  int off = 0;
  for (int a = 0; a < cfg->n_axes; off += cfg->axes_dim[a], ++a) {
    const int dim = cfg->axes_dim[a];
    for (int k = 0; k < dim / 2; ++k) {
      const double w = pow(cfg->theta, -2.0 * (double)k / (double)dim);
      const int i = cfg->pairing == PV_PAIRS_ADJACENT ? off + 2 * k : off + k;
      const int j = cfg->pairing == PV_PAIRS_ADJACENT ? off + 2 * k + 1 : off + k + dim / 2;
      for (int64_t r = 0; r < n; ++r) {
        const double ang = pos[r * cfg->n_axes + a] * w, c = cos(ang), sn = sin(ang);
        const double u = ld(t, x, r * cfg->head_dim + i), v = ld(t, x, r * cfg->head_dim + j);
        st(t, x, r * cfg->head_dim + i, u * c - v * sn);
        st(t, x, r * cfg->head_dim + j, u * sn + v * c);
      }
    }
  }
  return 0;
}

/* The initializer of version 1, as written then; the members added since are
 * zero (C), so the rebuilt plugin declares nothing new. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const pv_impl impl = {PV_ABI_VERSION, "abi-v1-rebuilt", attention, rope, sinusoid};
const pv_impl *posverify_impl(void) { return &impl; }
