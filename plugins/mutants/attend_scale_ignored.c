/* Mutant of the built-in attend(): the scale of the problem ignored, 1/sqrt(d) used in its place (the attn_no_scale class of the textbook attention, here with a scale given). */
#define PV_ATTEND_NAME "attend_scale_ignored"
#define PV_ATTEND_BUGS {.no_scale = 1}
#include "builtin/attend_kernel.h"
