/* The built-in tiled attend() declaring NaN for empty rows (not bad: a test
 * of a declared empty-row convention). Its empty rows -- a causal mask
 * before the first key, a window past the keys, k_len = 0 -- are NaN, which
 * posverify must accept as declared (the sandbox does not flag NaN in
 * attend's output; the laws compare NaN with NaN), while the same NaN from a
 * kernel declaring zeros is a failure. */
#define PV_ATTEND_NAME "attend-empty-nan"
#define PV_ATTEND_EMPTY PV_EMPTY_NAN
#include "builtin/attend_kernel.h"
