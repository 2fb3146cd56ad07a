/* Mutant: rows and columns swapped (reads the column id for the row components). */
#define PV_MUTANT_NAME "flux_axes_swapped"
#define PV_ROPE_BUGS {.axes_swapped = 1}
#include "mutant_kernels.h"
