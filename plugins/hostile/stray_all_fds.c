/* Hostile: writes "log\n" to every descriptor from 3 to 1023 on each call,
 * so it also hits posverify's result channel: a garbled result. */
#include "hostile.h"

HOSTILE_ATTENTION(for (int fd = 3; fd <= 1023; ++fd) (void)!write(fd, "log\n", 4))
HOSTILE_PLUGIN("hostile-stray-all-fds")
