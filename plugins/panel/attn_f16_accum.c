/* Panel (accuracy class float16-accumulation): attention computed in
 * float16 throughout, as a half-precision kernel without float32
 * accumulators does: q, k, v rounded to _Float16, every score, exponential,
 * sum and product rounded to _Float16 (GCC evaluates each statement in float
 * and rounds it to _Float16); the interface is float32 or float16 (PV_F16,
 * declared in `dtypes`, ABI version 5). It declares its accuracy class in
 * pv_impl.
 * PV_PANEL_BUG (the wrong sibling): no max-subtraction, so exp overflows
 * float16 (above 65504) once a score passes about 11. */
#include "posverify/impl.h"

#include <math.h>
#include <stddef.h>  /* NULL */
#include <stdlib.h>

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "panel-attn-f16-accum"
#endif

static int attention(pv_dtype t, const void *qp, const void *kp, const void *vp, int64_t n_q,
                     int64_t n_k, int64_t d, int64_t d_v, void *outp) {
  if (t != PV_F32 && t != PV_F16) return 1;
  if (n_q < 0 || n_k < 1 || d < 1 || d_v < 0) return 2;
#define LD(p, i) (t == PV_F32 ? (_Float16)((const float *)(p))[i] : ((const _Float16 *)(p))[i])
  _Float16 *e = malloc((size_t)n_k * sizeof *e);
  if (!e) return 3;
  const _Float16 scale = (_Float16)(1.0f / sqrtf((float)d));
  for (int64_t i = 0; i < n_q; ++i) {
    _Float16 m = (_Float16)-INFINITY, z = 0;
    for (int64_t j = 0; j < n_k; ++j) {
      _Float16 s = 0;
      for (int64_t l = 0; l < d; ++l) {
        const _Float16 p = LD(qp, i * d + l) * LD(kp, j * d + l);
        s = s + p;
      }
      e[j] = s * scale;
      if (e[j] > m) m = e[j];
    }
#ifdef PV_PANEL_BUG
    m = 0;
#endif
    for (int64_t j = 0; j < n_k; ++j) {
      e[j] = (_Float16)expf((float)(_Float16)(e[j] - m));
      z = z + e[j];
    }
    for (int64_t c = 0; c < d_v; ++c) {
      _Float16 acc = 0;
      for (int64_t j = 0; j < n_k; ++j) {
        const _Float16 p = e[j] * LD(vp, j * d_v + c);
        acc = acc + p;
      }
      const _Float16 o = acc / z;
      if (t == PV_F32) ((float *)outp)[i * d_v + c] = (float)o;
      else ((_Float16 *)outp)[i * d_v + c] = o;
    }
  }
  free(e);
  return 0;
#undef LD
}

static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, attention, NULL, NULL, "float16-accumulation", NULL, 0, 0,
                              PV_DTYPE_BIT(PV_F16)};
const pv_impl *posverify_impl(void) { return &impl; }
