/* Mutant: attention without the 1/sqrt(d) scale. */
#define PV_MUTANT_NAME "attn_no_scale"
#define PV_ATT_BUGS {.no_scale = 1}
#include "mutant_kernels.h"
