/* The built-in attend() (ABI version 4): every capability of
 * pv_attention_problem (causal and windowed masks with their alignment,
 * padding, GQA, softcap, sinks, ALiBi, the log-sum-exp), computed as a tiled
 * online softmax (attend_kernel.h), so that it is not a twin of posverify's
 * reference. Empty rows: zeros. Stored in float32, float64, float16 or
 * bfloat16 (computed in float for the 16-bit ones). */
#define PV_ATTEND_DTYPES (PV_DTYPE_BIT(PV_F16) | PV_DTYPE_BIT(PV_BF16))
#include "builtin/attend_kernel.h"
