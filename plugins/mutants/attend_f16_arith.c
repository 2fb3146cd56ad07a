/* Mutant of the built-in attend(): it declares float16 storage (dtypes), the promise that only q, k, v and
 * out are float16, and computes in float16 too: every score, exponential, running sum and accumulator rounded
 * to _Float16, as a half-precision kernel without float32 accumulators does (llama.cpp's float16 V.P
 * accumulators, PR 13975 and 17746). */
#define PV_ATTEND_NAME "attend_f16_arith"
#define PV_ATTEND_DTYPES PV_DTYPE_BIT(PV_F16)
#define PV_ATTEND_F16_ARITH 1
#include "builtin/attend_kernel.h"
