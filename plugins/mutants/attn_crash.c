/* Mutant: segmentation fault when n_q >= 5. */
#define PV_MUTANT_NAME "attn_crash"
#define PV_ATT_BUGS {.crash = 1}
#include "mutant_kernels.h"
