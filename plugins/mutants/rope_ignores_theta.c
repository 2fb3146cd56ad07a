/* Mutant: always base 10000, whatever theta is asked. */
#define PV_MUTANT_NAME "rope_ignores_theta"
#define PV_ROPE_BUGS {.ignores_theta = 1}
#include "mutant_kernels.h"
