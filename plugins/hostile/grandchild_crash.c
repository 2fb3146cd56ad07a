/* Hostile: forks a process that sleeps for a minute holding every
 * descriptor, then crashes: the crash must be reported as a crash, at once,
 * not as a hang when the time limit passes. */
#include "hostile.h"

#include <signal.h>

static void fork_then_crash(void) {
  hostile_fork_sleeper();
  raise(SIGSEGV);
}

HOSTILE_ATTENTION(fork_then_crash())
HOSTILE_PLUGIN("hostile-grandchild-crash")
