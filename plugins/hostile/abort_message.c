/* Hostile: writes 100 KB of chatter to stderr (more than a pipe holds), then
 * an assertion message naming the cause, then aborts: the message must reach
 * the finding. */
#include "hostile.h"

static void chatter_then_abort(void) {
  for (int i = 0; i < 4000; ++i) fprintf(stderr, "debug line %d: \x1b[2Jnoise\n", i);
  fprintf(stderr, "kernel.c:42: attention: Assertion `unsupported K-type' failed.\n");
  fflush(stderr);
  abort();
}

HOSTILE_ATTENTION(chatter_then_abort())
HOSTILE_PLUGIN("hostile-abort-message")
