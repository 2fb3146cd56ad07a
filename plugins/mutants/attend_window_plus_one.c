/* Mutant of the built-in attend(): a sliding window of W + 1 keys on the left instead of W (whether W counts the query itself: transformers#29623, vllm#3385). */
#define PV_ATTEND_NAME "attend_window_plus_one"
#define PV_ATTEND_BUGS {.window_extra = 1}
#include "builtin/attend_kernel.h"
