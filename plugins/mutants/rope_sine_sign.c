/* Mutant: the sign of the sine flipped in the second component. */
#define PV_MUTANT_NAME "rope_sine_sign"
#define PV_ROPE_BUGS {.sine_sign = 1}
#include "mutant_kernels.h"
