/* Mutant of the built-in attend(): the logit softcap silently ignored (Gemma 2's c tanh(s/c); sgl-kernel-xpu PR 491). */
#define PV_ATTEND_NAME "attend_softcap_ignored"
#define PV_ATTEND_BUGS {.no_softcap = 1}
#include "builtin/attend_kernel.h"
