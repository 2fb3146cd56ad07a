/* Built-in plugin: the textbook formulas in double precision (float64 only;
 * float32 calls return 1, "not supported"). */
#include "posverify/impl.h"
#include "rope_config.h"

#include <math.h>
#include <stdlib.h>

static int attention(pv_dtype t, const void *qp, const void *kp, const void *vp, int64_t n_q,
                     int64_t n_k, int64_t d, int64_t d_v, void *outp) {
  if (t != PV_F64) return 1;
  if (n_q < 0 || n_k < 1 || d < 1 || d_v < 0) return 2;
  const double *q = qp, *k = kp, *v = vp;
  double *out = outp;
  double *e = malloc((size_t)n_k * sizeof *e);
  if (!e) return 3;
  const double scale = 1.0 / sqrt((double)d);
  for (int64_t i = 0; i < n_q; ++i) {
    double m = -INFINITY, z = 0;
    for (int64_t j = 0; j < n_k; ++j) {
      double s = 0;
      for (int64_t l = 0; l < d; ++l) s += q[i * d + l] * k[j * d + l];
      e[j] = s * scale;
      if (e[j] > m) m = e[j];
    }
    for (int64_t j = 0; j < n_k; ++j) z += (e[j] = exp(e[j] - m));
    for (int64_t c = 0; c < d_v; ++c) {
      double acc = 0;
      for (int64_t j = 0; j < n_k; ++j) acc += e[j] * v[j * d_v + c];
      out[i * d_v + c] = acc / z;
    }
  }
  free(e);
  return 0;
}

static int rope(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *xp) {
  if (t != PV_F64) return 1;
  if (pv_rope_config_ok(cfg)) return pv_rope_config_ok(cfg);
  double *x = xp;
  for (int64_t r = 0; r < n; ++r) {
    int off = 0;
    for (int a = 0; a < cfg->n_axes; ++a) {
      const int dim = cfg->axes_dim[a];
      for (int k = 0; k < dim / 2; ++k) {
        int ia, ib;
        pv_pair(cfg->pairing, off, dim, k, &ia, &ib);
        const double w = pow(cfg->theta, -2.0 * k / dim);
        const double ang = pos[r * cfg->n_axes + a] * w, c = cos(ang), s = sin(ang);
        double *row = x + r * cfg->head_dim;
        const double xa = row[ia], xb = row[ib];
        row[ia] = xa * c - xb * s;
        row[ib] = xa * s + xb * c;
      }
      off += dim;
    }
  }
  return 0;
}

static int sinusoid(pv_dtype t, int64_t d, double base, const double *pos, int64_t n, void *outp) {
  if (t != PV_F64) return 1;
  if (d <= 0 || d % 2) return 2;
  double *out = outp;
  for (int64_t r = 0; r < n; ++r)
    for (int64_t i = 0; i < d / 2; ++i) {
      const double ang = pos[r] * pow(base, -2.0 * (double)i / (double)d);
      out[r * d + 2 * i] = sin(ang);
      out[r * d + 2 * i + 1] = cos(ang);
    }
  return 0;
}

static const pv_impl impl = {PV_ABI_VERSION, "builtin-plain-double", attention, rope, sinusoid, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
