/* Hostile: declines (returns 1) every case except n_k = 1, where the
 * attention is trivially the value row: it once passed every law. */
#include "hostile.h"

HOSTILE_ATTENTION(if (n_k != 1) return 1)
HOSTILE_PLUGIN("hostile-declines")
