/* Mutant: sinusoid speeds base^(-i/d) instead of base^(-2i/d). */
#define PV_MUTANT_NAME "sin_half_exponent"
#define PV_SIN_BUGS {.half_exponent = 1}
#include "mutant_kernels.h"
