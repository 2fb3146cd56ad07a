/* Mutant: NaN/inf when d_v == 3 (divides by a zeroed normaliser). */
#define PV_MUTANT_NAME "attn_nan"
#define PV_ATT_BUGS {.nan_input = 1}
#include "mutant_kernels.h"
