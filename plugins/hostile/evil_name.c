/* Hostile: a name with an escape sequence that clears the screen, a bell,
 * and a newline followed by a Markdown heading. */
#include "hostile.h"

HOSTILE_ATTENTION((void)0)
HOSTILE_PLUGIN("evil\x1b[2J\x1b[31m\a\n# injected heading | cell")
