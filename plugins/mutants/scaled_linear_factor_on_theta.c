/* The built-in scaled_rope with one bug: the linear factor applied to theta instead of the positions. */
#define PV_SCALED_BUG BUG_FACTOR_ON_THETA
#define PV_SCALED_NAME "scaled_linear_factor_on_theta"
#include "builtin/scaled_rope.c"
