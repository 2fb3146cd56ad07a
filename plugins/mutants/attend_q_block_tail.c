/* Mutant of the built-in attend(): query rows in blocks of 64 and a grid of floor(n_q / 64) blocks once
 * n_q > 64 (an integer division where a ceiling was meant), so that the rows past the last full block are
 * never written: tiny-flash-attention#12 (no copy-out mask for a sequence length that is not a multiple of
 * the block), TileOPs PR 6 (n_t = S // chunk silently drops the tail). Every row it writes is right, so
 * only a problem with more than 64 queries that is not a multiple of 64 shows it. */
#define PV_ATTEND_NAME "attend_q_block_tail"
#define PV_ATTEND_BUGS {.q_grid_floor = 1}
#include "builtin/attend_kernel.h"
