/* Mutant (a size-class bug): NaN when a score ties exactly with the running maximum.
 * The panel member attn_tiled_split with one bug switched on (see that file). */
#define PV_BUG PV_BUG_NAN_ON_TIES
#define PV_PANEL_NAME "size_nan_on_ties"
#include "panel/attn_tiled_split.c"
