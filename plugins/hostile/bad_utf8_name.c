/* Hostile: a name that is not UTF-8 (0xff 0xfe, a truncated sequence). */
#include "hostile.h"

HOSTILE_ATTENTION((void)0)
HOSTILE_PLUGIN("bad\xff\xfe-utf8\xc3")
