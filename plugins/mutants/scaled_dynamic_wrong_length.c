/* The built-in scaled_rope with one bug: dynamic NTK computed from the wrong length (s times the original length, not the current one). */
#define PV_SCALED_BUG BUG_DYNAMIC_WRONG_LEN
#define PV_SCALED_NAME "scaled_dynamic_wrong_length"
#include "builtin/scaled_rope.c"
