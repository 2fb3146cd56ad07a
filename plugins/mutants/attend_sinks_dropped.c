/* Mutant of the built-in attend(): the attention sinks dropped from the softmax denominator (gpt-oss; modular#6198). */
#define PV_ATTEND_NAME "attend_sinks_dropped"
#define PV_ATTEND_BUGS {.no_sinks = 1}
#include "builtin/attend_kernel.h"
