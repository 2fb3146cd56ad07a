/* Mutant (a size-class bug): the last partial tile (not the first) loses its last key.
 * The panel member attn_tiled_split with one bug switched on (see that file). */
#define PV_BUG PV_BUG_PARTIAL_TILE
#define PV_PANEL_NAME "size_partial_tile"
#include "panel/attn_tiled_split.c"
