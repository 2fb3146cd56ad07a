/* Hostile: an attention that reads only the first 16 keys, and declines
 * (returns 1) every call with d > 16, so that the model-scale shapes of
 * attention.shapes, where the dropped keys show, are never evaluated. A
 * kernel may decline a dtype, not a size: the probe ran attention() on
 * float64, so every law with such a decline is insufficient. */
#include "hostile.h"

HOSTILE_ATTENTION(if (d > 16) return 1; if (n_k > 16) n_k = 16)
HOSTILE_PLUGIN("hostile-declines-wide-heads")
