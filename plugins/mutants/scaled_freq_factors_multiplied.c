/* The built-in scaled_rope with one bug: per-pair frequency factors (llama.cpp's rope_freqs, LongRoPE) multiply each pair's speed instead of dividing it. */
#define PV_SCALED_BUG BUG_FREQ_FACTORS_MULTIPLIED
#define PV_SCALED_NAME "scaled_freq_factors_multiplied"
#include "builtin/scaled_rope.c"
