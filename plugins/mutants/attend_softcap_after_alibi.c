/* Mutant of the built-in attend(): the softcap applied after the ALiBi bias is added, c tanh((s + bias)/c), where FlashAttention caps first and adds the bias after (TransformerEngine PR 3391). */
#define PV_ATTEND_NAME "attend_softcap_after_alibi"
#define PV_ATTEND_BUGS {.cap_after_bias = 1}
#include "builtin/attend_kernel.h"
