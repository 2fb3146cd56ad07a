/* Mutant of the built-in attend(): the causal mask aligned top-left (query 0 at position 0), q_start ignored; right for n_q = n_k, wrong for decoding and chunked prefill (PyTorch SDPA is_causal with a KV cache, pytorch#144858). */
#define PV_ATTEND_NAME "attend_causal_top_left"
#define PV_ATTEND_BUGS {.top_left = 1}
#include "builtin/attend_kernel.h"
