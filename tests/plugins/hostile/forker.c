/* Hostile: forks a process on each call that sleeps for a minute (orphans
 * that once outlived posverify and held its stderr). */
#include "hostile.h"

static void spawn_sleeper(void) {
  pid_t p = fork();
  if (p == 0) {
    hostile_note_pid();
    sleep(60);
    _exit(0);
  }
}

HOSTILE_ATTENTION(spawn_sleeper())
HOSTILE_PLUGIN("hostile-forker")
