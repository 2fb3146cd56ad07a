/* Hostile: allocates 10 GiB and writes to it. Under posverify's memory limit
 * the allocation fails and the write to the NULL pointer crashes; without a
 * limit the allocation succeeds (only its first page is touched, to keep
 * the machine safe) and the call goes on. */
#include "hostile.h"

static void hog(void) {
  volatile char *p = malloc((size_t)10 << 30);
  for (int i = 0; i < 4096; ++i) p[i] = 1; /* crashes when the allocation failed */
  free((void *)p);
}

HOSTILE_ATTENTION(hog())
HOSTILE_PLUGIN("hostile-hog")
