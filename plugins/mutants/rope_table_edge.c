/* Mutant: a RoPE kernel whose angle table is off by one at the end of every
 * power-of-two segment: position 2^k - 1 (k >= 6) is rotated as 2^k - 2.
 * Uniform random positions up to 8192 land on one of those 8 positions about
 * once in a thousand coordinates; the structured positions of the RoPE laws
 * (check/structured_inputs.h) reach them in every run. */
#define PV_MUTANT_NAME "rope_table_edge"
#define PV_ROPE_BUGS {.table_edge = 1}
#include "mutant_kernels.h"
