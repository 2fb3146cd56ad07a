/* The 16-bit storage formats of the plugin interface (PV_F16, PV_BF16; ABI
 * version 5) as C plugins read and write them: a value widened to float
 * exactly, a float rounded to the format to nearest even (bfloat16 by its
 * top 16 bits, a NaN kept quiet). Shared by the built-in attend kernel and
 * the panel's attend members. */
#ifndef PV_PLUGINS_SIXTEEN_BIT_H
#define PV_PLUGINS_SIXTEEN_BIT_H

#include "posverify/impl.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float pv_from16(pv_dtype t, uint16_t h) {
  if (t == PV_F16) {
    _Float16 x;
    memcpy(&x, &h, 2);
    return (float)x;
  }
  const uint32_t b = (uint32_t)h << 16;
  float f;
  memcpy(&f, &b, 4);
  return f;
}

static inline uint16_t pv_to16(pv_dtype t, float f) {
  uint16_t h;
  if (t == PV_F16) {
    const _Float16 x = (_Float16)f;
    memcpy(&h, &x, 2);
    return h;
  }
  uint32_t b;
  memcpy(&b, &f, 4);
  if (isnan(f)) return (uint16_t)(b >> 16 | 0x40);
  return (uint16_t)((b + 0x7fff + (b >> 16 & 1)) >> 16);
}

/* f rounded to the format t, as a float (what storing it there keeps). */
static inline float pv_round16(pv_dtype t, float f) { return pv_from16(t, pv_to16(t, f)); }

#endif
