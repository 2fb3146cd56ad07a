/* Mutant: positions rounded to bfloat16 (8 significant bits). */
#define PV_MUTANT_NAME "rope_pos_bf16"
#define PV_ROPE_BUGS {.pos_bits = 8}
#include "mutant_kernels.h"
