/* Mutant of the built-in attend(): the softcap computed as (s/c) tanh(s/c) instead of c tanh(s/c), a swish that does not cap (flash-attention#2396). */
#define PV_ATTEND_NAME "attend_softcap_swish"
#define PV_ATTEND_BUGS {.softcap_swish = 1}
#include "builtin/attend_kernel.h"
