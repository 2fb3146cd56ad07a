/* Mutant of the built-in attend(): GQA heads mapped by tiling, query head h reads KV head h mod h_kv, instead of repeating each KV head (floor(h h_kv / h_q)). */
#define PV_ATTEND_NAME "attend_gqa_tile"
#define PV_ATTEND_BUGS {.tile = 1}
#include "builtin/attend_kernel.h"
