/* Mutant (a size-class bug): segfault once n_q n_k > 4096.
 * The panel member attn_tiled_split with one bug switched on (see that file). */
#define PV_BUG PV_BUG_CRASH_ABOVE
#define PV_PANEL_NAME "size_crash_above_size"
#include "panel/attn_tiled_split.c"
