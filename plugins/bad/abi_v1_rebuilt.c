/* A version-1-era kernel rebuilt against today's header (not bad: a loader
 * test). It was written when the interface had float32 and
 * float64 only, so it reads every dtype that is not float32 as double, and
 * its initializer lists the members of version 1 after PV_ABI_VERSION, as
 * most plugins write it. Rebuilt against the headers of versions 2 to 4, it
 * claimed their version and with it the 16-bit dtypes: it was sent float16
 * and bfloat16 buffers, read them as doubles and failed every 16-bit law,
 * though it is correct. The 16-bit dtypes are declared (`dtypes`, version 5),
 * never implied, so this kernel passes and is never sent one.
 * Attention and the sinusoid, computed in double and rounded once. */
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

/* The initializer of version 1, as written then; the members added since are
 * zero (C), so the rebuilt plugin declares nothing new. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const pv_impl impl = {PV_ABI_VERSION, "abi-v1-rebuilt", attention, NULL, sinusoid};
const pv_impl *posverify_impl(void) { return &impl; }
