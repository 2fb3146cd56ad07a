/* Mutant of the built-in attend(): packed items whose keys are cut with the queries' offsets, cu_seqlens_q taken
 * for cu_seqlens_k (one offsets array built from the query length serves both: right only when every item has as
 * many queries as keys; vllm-project/vllm-omni PR 3525, its cross-attention). */
#define PV_ATTEND_NAME "attend_varlen_k_from_q"
#define PV_ATTEND_BUGS {.varlen_k_from_q = 1}
#include "builtin/attend_kernel.h"
