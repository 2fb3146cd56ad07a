/* The built-in scaled_rope with one bug: the other pairing (adjacent pairs where split halves are asked, and back), in every scaled, partial and M-RoPE configuration. */
#define PV_SCALED_BUG BUG_PAIRING_FLIPPED
#define PV_SCALED_NAME "scaled_pairing_flipped"
#include "builtin/scaled_rope.c"
