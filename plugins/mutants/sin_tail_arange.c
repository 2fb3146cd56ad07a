/* Mutant: a sinusoid table computed in tiles of 16 rows whose last tile, when
 * partial and not the first, takes row r at position r (its tail loop
 * assumes the positions 0, 1, 2, ...). sinusoid.reference sends at most six
 * rows: only sinusoid.rows shows it. */
#define PV_MUTANT_NAME "sin_tail_arange"
#define PV_SIN_BUGS {.tail_arange = 1}
#include "mutant_kernels.h"
