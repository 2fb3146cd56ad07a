/* Mutant: infinite loop when n_k == 7. */
#define PV_MUTANT_NAME "attn_hang"
#define PV_ATT_BUGS {.hang = 1}
#include "mutant_kernels.h"
