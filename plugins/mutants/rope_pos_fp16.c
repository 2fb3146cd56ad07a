/* Mutant: positions rounded to float16 (11 significant bits, overflow above 65504). */
#define PV_MUTANT_NAME "rope_pos_fp16"
#define PV_ROPE_BUGS {.pos_bits = 11}
#include "mutant_kernels.h"
