/* Mutant: a RoPE kernel that rotates rows in tiles of 16 and leaves the last
 * tile unrotated when it is partial and not the first (its tail loop was
 * forgotten). Every RoPE law but rope.rows sends at most a few rows per call
 * (FLUX's grids aside): only a batch of 17 rows or more, off a multiple of
 * 16, shows it. */
#define PV_MUTANT_NAME "rope_tail_unrotated"
#define PV_ROPE_BUGS {.tail_unrotated = 1}
#include "mutant_kernels.h"
