/* The built-in scaled_rope with one bug: YaRN and llama3 without their ramp, every speed divided by the factor (plain position interpolation). */
#define PV_SCALED_BUG BUG_NO_RAMP
#define PV_SCALED_NAME "scaled_no_ramp"
#include "builtin/scaled_rope.c"
