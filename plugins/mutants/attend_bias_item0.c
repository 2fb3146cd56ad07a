/* Mutant of the built-in attend(): a bias of one per item read as one for every item, item 0's (a per-item mask
 * read with a batch stride of 0: microsoft/onnxruntime-genai PR 1639, lucidrains/graph-transformer-pytorch PR 2). */
#define PV_ATTEND_NAME "attend_bias_item0"
#define PV_ATTEND_BUGS {.bias_item0 = 1}
#include "builtin/attend_kernel.h"
