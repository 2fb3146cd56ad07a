/* The built-in scaled_rope with one bug: partial rotary rotating all head_dim components. */
#define PV_SCALED_BUG BUG_PARTIAL_ALL
#define PV_SCALED_NAME "scaled_partial_rotates_all"
#include "builtin/scaled_rope.c"
