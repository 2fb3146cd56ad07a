/* Mutant of the built-in attend(): at n_q = 1 with GQA, the group of query heads of a KV head is swapped into
 * the sequence dimension while q keeps its strides (pytorch PR 186434, the ROCm CK wrapper's single-query GQA
 * path): query head g (h_q / h_kv) + r of item b reads the query of item b + r, head g. Past the last item it
 * wraps to item (b + r) mod batch (the real bug read whatever memory lay there). */
#define PV_ATTEND_NAME "attend_gqa_decode_swap"
#define PV_ATTEND_BUGS {.decode_swap = 1}
#include "builtin/attend_kernel.h"
