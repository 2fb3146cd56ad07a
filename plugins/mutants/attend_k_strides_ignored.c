/* Mutant of the built-in attend(): the keys read as if k were dense (batch, token, head), its strides ignored.
 * Right for that layout, wrong for heads before tokens or gaps between strides (FlashAttention PR 1562:
 * non-contiguous inputs gave other outputs than contiguous ones). */
#define PV_ATTEND_NAME "attend_k_strides_ignored"
#define PV_ATTEND_BUGS {.k_dense = 1}
#include "builtin/attend_kernel.h"
