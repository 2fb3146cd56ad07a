/* Mutant: a stray causal mask (keys after the query are dropped). */
#define PV_MUTANT_NAME "attn_causal"
#define PV_ATT_BUGS {.causal = 1}
#include "mutant_kernels.h"
