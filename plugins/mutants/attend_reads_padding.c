/* Mutant of the built-in attend(): the valid key lengths ignored, so the
 * padded keys (memory that must not be read) are read and weighted (NaN on
 * fully masked or padded rows: pytorch#103749, #110213; NaN in masked-out K/V
 * leaking through: pytorch#101967). */
#define PV_ATTEND_NAME "attend_reads_padding"
#define PV_ATTEND_BUGS {.reads_padding = 1}
#include "builtin/attend_kernel.h"
