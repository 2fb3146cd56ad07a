/* Mutant (a size-class bug): the online softmax does not rescale its running sum when the maximum grows (tiles of 64).
 * The panel member attn_tiled_split with one bug switched on (see that file). */
#define PV_BUG PV_BUG_NO_RESCALE
#define PV_PANEL_NAME "size_no_rescale"
#include "panel/attn_tiled_split.c"
