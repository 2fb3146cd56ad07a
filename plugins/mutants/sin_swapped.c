/* Mutant: sinusoid layout (cos, sin) instead of (sin, cos). */
#define PV_MUTANT_NAME "sin_swapped"
#define PV_SIN_BUGS {.swapped = 1}
#include "mutant_kernels.h"
