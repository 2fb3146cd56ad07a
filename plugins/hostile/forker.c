/* Hostile: forks a process on each call that sleeps for a minute (orphans
 * that once outlived posverify and held its stderr). */
#include "hostile.h"

HOSTILE_ATTENTION(hostile_fork_sleeper())
HOSTILE_PLUGIN("hostile-forker")
