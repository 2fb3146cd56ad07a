/* Mutant: writes one entry past the end of out. */
#define PV_MUTANT_NAME "attn_write_past"
#define PV_ATT_BUGS {.write_past = 1}
#include "mutant_kernels.h"
