/* Hostile: says why on stderr, then returns an error code (2) instead of a
 * result: the message must reach the finding of that call. */
#include "hostile.h"

HOSTILE_ATTENTION(if (n_q >= 0) {
  fprintf(stderr, "kernel: K-type q8_0 is not supported\n");
  return 2;
})
HOSTILE_PLUGIN("hostile-error-message")
