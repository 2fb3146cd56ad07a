/* The built-in scaled_rope with one bug: the rotated block starts at component 0 whatever rotary_offset says (MLA's rope part rotated in place of the no-position part). */
#define PV_SCALED_BUG BUG_OFFSET_IGNORED
#define PV_SCALED_NAME "scaled_rotary_offset_ignored"
#include "builtin/scaled_rope.c"
