/* Mutant (a size-class bug): query rows in blocks of 64 and a grid of
 * floor(n_q / 64) blocks once n_q > 64, so that the rows past the last full
 * block are never written. The panel member attn_tiled_split with one bug
 * switched on (see that file); attention.shapes' n_q = 65, 129 and 257 show it. */
#define PV_BUG PV_BUG_PREFILL_GRID
#define PV_PANEL_NAME "size_prefill_grid"
#include "panel/attn_tiled_split.c"
