/* Panel (accuracy class bfloat16): attention as PyTorch's eager path computes
 * it on bfloat16 tensors (three operations, each producing a bfloat16 tensor):
 * S = bf16(q k^T) with float32 accumulation, S = bf16(S / sqrt(d)),
 * P = bf16(softmax(S)) (max, exp and sum in float32), out = bf16(P v) with
 * float32 accumulation; q, k and v are rounded to bfloat16 on entry. The
 * interface is float32; it declares its accuracy class in pv_impl.
 * Subnormals are flushed to zero, as bfloat16 hardware does (bf16 and ftz
 * below): the matmuls' inputs, products and sums, and every rounded result.
 * A kernel of this kind, failed as float32, was advised "consistent with
 * float16 storage, declare --accuracy float16", and failed with it.
 * PV_PANEL_BUG (the wrong sibling): the softmax's sum of exponentials is
 * accumulated in bfloat16 (a 16-bit accumulator: the sum stops growing once
 * an addend falls below half its ulp), so the weights of a row do not sum to 1.
 */
#include "posverify/impl.h"

#include <math.h>
#include <stddef.h> /* NULL */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef PV_PANEL_NAME
#define PV_PANEL_NAME "panel-attn-bf16-eager"
#endif

/* x rounded to the nearest bfloat16 (ties to even), as a float; a subnormal
 * result is flushed to zero, as bfloat16 hardware does (x86's VDPBF16PS and
 * AMX tiles read and write subnormals as 0: PyTorch's bfloat16 matmul on such
 * a CPU returned 0 where the exact output was 2.4e-38) */
static float bf16(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  if ((b & 0x7f800000u) != 0x7f800000u) b += 0x7fffu + ((b >> 16) & 1u);
  b &= 0xffff0000u;
  if ((b & 0x7f800000u) == 0) b &= 0x80000000u;
  memcpy(&x, &b, 4);
  return x;
}

/* x with a subnormal flushed to zero (the product of a bfloat16 dot-product
 * instruction, accumulated in float32) */
static float ftz(float x) { return fabsf(x) < 0x1p-126f ? 0.0f * x : x; }

static int attention(pv_dtype t, const void *qp, const void *kp, const void *vp, int64_t n_q,
                     int64_t n_k, int64_t d, int64_t d_v, void *outp) {
  if (t != PV_F32) return 1;
  if (n_q < 0 || n_k < 1 || d < 1 || d_v < 0) return 2;
  const float *q = qp, *k = kp, *v = vp;
  float *out = outp;
  float *p = malloc((size_t)n_k * sizeof *p);
  if (!p) return 3;
  const float scale = bf16(1.0f / sqrtf((float)d));
  for (int64_t i = 0; i < n_q; ++i) {
    float m = -INFINITY, z = 0;
    for (int64_t j = 0; j < n_k; ++j) {
      float s = 0;
      for (int64_t l = 0; l < d; ++l) s = ftz(s + ftz(bf16(q[i * d + l]) * bf16(k[j * d + l])));
      p[j] = bf16(bf16(s) * scale);
      if (p[j] > m) m = p[j];
    }
    for (int64_t j = 0; j < n_k; ++j) p[j] = expf(p[j] - m);
#ifdef PV_PANEL_BUG
    for (int64_t j = 0; j < n_k; ++j) z = bf16(z + p[j]);
#else
    for (int64_t j = 0; j < n_k; ++j) z += p[j];
#endif
    for (int64_t j = 0; j < n_k; ++j) p[j] = bf16(p[j] / z);
    for (int64_t c = 0; c < d_v; ++c) {
      float acc = 0;
      for (int64_t j = 0; j < n_k; ++j) acc = ftz(acc + ftz(p[j] * bf16(v[j * d_v + c])));
      out[i * d_v + c] = bf16(acc);
    }
  }
  free(p);
  return 0;
}

static const pv_impl impl = {PV_ABI_VERSION, PV_PANEL_NAME, attention, NULL, NULL, "bfloat16", NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
