/* Mutant of the built-in attend(): keys in tiles of 4 rather than 16 when the call has fewer than 8
 * (batch item, head) pairs -- a schedule chosen from the grid size to keep the cores busy, as
 * FlashAttention's num_splits heuristic chooses the split-KV count from batch x heads x query blocks
 * against the SM count -- while it declares a fixed schedule. Each tiling is a correct online softmax
 * within the bound, so every comparison with the exact attention passes; but a row's bits depend on the
 * batch around it: an item called alone differs from the same item in a batch of two
 * ("Defeating Nondeterminism in LLM Inference", Thinking Machines Lab 2025). */
#define PV_ATTEND_NAME "attend_tile_by_batch"
#define PV_ATTEND_BUGS {.tile_by_batch = 1}
#include "builtin/attend_kernel.h"
