/* Mutant of the built-in attend(): the ALiBi slopes ignored: no bias added to the scores (as modular#6198 dropped the sinks). */
#define PV_ATTEND_NAME "attend_alibi_ignored"
#define PV_ATTEND_BUGS {.no_alibi = 1}
#include "builtin/attend_kernel.h"
