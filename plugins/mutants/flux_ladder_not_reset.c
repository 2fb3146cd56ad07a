/* Mutant: one speed ladder over the whole head instead of one per axis. */
#define PV_MUTANT_NAME "flux_ladder_not_reset"
#define PV_ROPE_BUGS {.ladder_not_reset = 1}
#include "mutant_kernels.h"
