/* Mutant: positions off by one (m + 1). */
#define PV_MUTANT_NAME "rope_pos_off_by_one"
#define PV_ROPE_BUGS {.pos_offset = 1}
#include "mutant_kernels.h"
