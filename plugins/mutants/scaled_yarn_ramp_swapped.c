/* The built-in scaled_rope with one bug: the YaRN ramp with its ends swapped. */
#define PV_SCALED_BUG BUG_RAMP_SWAPPED
#define PV_SCALED_NAME "scaled_yarn_ramp_swapped"
#include "builtin/scaled_rope.c"
