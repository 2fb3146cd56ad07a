/* Mutant: the head split among the axes in reverse order. */
#define PV_MUTANT_NAME "flux_split_reversed"
#define PV_ROPE_BUGS {.split_reversed = 1}
#include "mutant_kernels.h"
