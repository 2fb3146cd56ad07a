/* Mutant (a size-class bug): the split-K combine adds the halves without their exp(m_p - M) weights.
 * The panel member attn_tiled_split with one bug switched on (see that file). */
#define PV_BUG PV_BUG_SPLIT_WEIGHTS
#define PV_PANEL_NAME "size_split_weights"
#include "panel/attn_tiled_split.c"
