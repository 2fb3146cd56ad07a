/* Mutant: scales its input q in place. */
#define PV_MUTANT_NAME "attn_writes_input"
#define PV_ATT_BUGS {.writes_input = 1}
#include "mutant_kernels.h"
