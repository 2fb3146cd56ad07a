/* Hostile: writes "log\n" to every descriptor from 3 to 20 on each call (it
 * once filled posverify's result pipe and hung the run forever). */
#include "hostile.h"

HOSTILE_ATTENTION(for (int fd = 3; fd <= 20; ++fd) (void)!write(fd, "log\n", 4))
HOSTILE_PLUGIN("hostile-strayfd")
