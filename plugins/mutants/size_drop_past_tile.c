/* Mutant (a size-class bug): keys past the first tile of 64 are dropped.
 * The panel member attn_tiled_split with one bug switched on (see that file). */
#define PV_BUG PV_BUG_DROP_PAST_TILE
#define PV_PANEL_NAME "size_drop_past_tile"
#include "panel/attn_tiled_split.c"
