/* Mutant: the other pair convention (halves for adjacent and vice versa). */
#define PV_MUTANT_NAME "rope_pairs_swapped"
#define PV_ROPE_BUGS {.pairs_swapped = 1}
#include "mutant_kernels.h"
