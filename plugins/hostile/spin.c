/* Hostile: notes its pid and spins forever (for the SIGTERM/SIGINT test). */
#include "hostile.h"

static void spin(void) {
  hostile_note_pid();
  for (volatile unsigned long i = 0;; ++i) {
  }
}

HOSTILE_ATTENTION(spin())
HOSTILE_PLUGIN("hostile-spin")
