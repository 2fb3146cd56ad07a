/* The built-in scaled_rope with one bug: llama3's low_freq_factor and high_freq_factor swapped (the ramp's ends trade places, so no pair is smoothed). */
#define PV_SCALED_BUG BUG_LLAMA3_FACTORS_SWAPPED
#define PV_SCALED_NAME "scaled_llama3_factors_swapped"
#include "builtin/scaled_rope.c"
