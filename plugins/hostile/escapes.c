/* Hostile: on every call, starts two processes that leave the plugin's
 * process group, which posverify kills: a daemon in a session of its own
 * (setsid, after a double fork) and one that joins posverify's own process
 * group (setpgid). Each notes its pid and sleeps for a minute; either could
 * rewrite the reports after posverify has exited. posverify is a child
 * subreaper: both become its children when their parents die, and are killed
 * before it exits. */
#include "hostile.h"

HOSTILE_ATTENTION(hostile_fork_sleeper_as(HOSTILE_SETSID_DAEMON); hostile_fork_sleeper_as(HOSTILE_JOINS_PARENT_GROUP))
HOSTILE_PLUGIN("hostile-escapes")
