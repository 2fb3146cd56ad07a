/* Mutant of the built-in attend(): the causal mask is dropped when n_q > 1, so a prefill's rows see the keys
 * after their position while a single-query decode step (nothing after it) is right: cached and uncached outputs
 * differ (transformers#48748, Doge's SDPA path passing its own mask without the causal part). */
#define PV_ATTEND_NAME "attend_causal_dropped_prefill"
#define PV_ATTEND_BUGS {.prefill_not_causal = 1}
#include "builtin/attend_kernel.h"
