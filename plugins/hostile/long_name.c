/* Hostile: a correct kernel whose name is 200 control bytes (each shown as
 * \xNN: 800 characters, more than a file name may hold). */
#include "hostile.h"

#define C10 "\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f"
#define C100 C10 C10 C10 C10 C10 C10 C10 C10 C10 C10
HOSTILE_ATTENTION((void)0)
HOSTILE_PLUGIN(C100 C100)
