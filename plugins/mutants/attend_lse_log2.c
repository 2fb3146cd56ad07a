/* Mutant of the built-in attend(): the log-sum-exp returned in base 2, log2 Z instead of ln Z (a kernel that
 * folds log2 e into the scale and sums exp2, as FlashAttention does, and forgets to convert its lse back). */
#define PV_ATTEND_NAME "attend_lse_log2"
#define PV_ATTEND_BUGS {.lse_log2 = 1}
#include "builtin/attend_kernel.h"
