/* The built-in scaled_rope with one bug: partial rotary rotating the last R components instead of the first. */
#define PV_SCALED_BUG BUG_PARTIAL_WRONG
#define PV_SCALED_NAME "scaled_partial_wrong_components"
#include "builtin/scaled_rope.c"
