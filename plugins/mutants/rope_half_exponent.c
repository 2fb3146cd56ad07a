/* Mutant: speeds theta^(-k/dim) instead of theta^(-2k/dim). */
#define PV_MUTANT_NAME "rope_half_exponent"
#define PV_ROPE_BUGS {.half_exponent = 1}
#include "mutant_kernels.h"
