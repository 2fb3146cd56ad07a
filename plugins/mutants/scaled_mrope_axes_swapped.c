/* The built-in scaled_rope with one bug: M-RoPE's height and width sections read each other's positions (axes 1 and 2 swapped, e.g. position ids stacked as (t, w, h)). */
#define PV_SCALED_BUG BUG_MROPE_AXES_SWAPPED
#define PV_SCALED_NAME "scaled_mrope_axes_swapped"
#include "builtin/scaled_rope.c"
