/* Hostile: closes every descriptor from 3 to 1023 on each call, among them
 * posverify's result channel. */
#include "hostile.h"

HOSTILE_ATTENTION(for (int fd = 3; fd <= 1023; ++fd) close(fd))
HOSTILE_PLUGIN("hostile-closes-fds")
