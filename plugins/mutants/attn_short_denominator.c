/* Mutant: the softmax denominator skips the last key (an off-by-one loop bound): weights sum to more than 1. */
#define PV_MUTANT_NAME "attn_short_denominator"
#define PV_ATT_BUGS {.short_denominator = 1}
#include "mutant_kernels.h"
