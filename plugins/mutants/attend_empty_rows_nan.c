/* Mutant of the built-in attend(): it declares zeros for empty rows and
 * writes NaN there (a softmax over a fully masked row: pytorch#103749,
 * #110213). */
#define PV_ATTEND_NAME "attend_empty_rows_nan"
#define PV_ATTEND_EMPTY PV_EMPTY_NAN
#define PV_ATTEND_DECLARED_EMPTY PV_EMPTY_ZEROS
#include "builtin/attend_kernel.h"
