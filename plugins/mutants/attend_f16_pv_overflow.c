/* Mutant of the built-in attend(): float16 storage (dtypes) with scores, exponentials and sums in float, but
 * the p v accumulator kept in float16, as llama.cpp's CPU flash attention kept V.P for a float16 V (PR 13975,
 * 17746): each rescaling and addition rounded to float16, so the unnormalised sum overflows past 65504 while
 * the output, a weighted mean of the values, is far below it. */
#define PV_ATTEND_NAME "attend_f16_pv_overflow"
#define PV_ATTEND_DTYPES PV_DTYPE_BIT(PV_F16)
#define PV_ATTEND_PV_F16 1
#include "builtin/attend_kernel.h"
