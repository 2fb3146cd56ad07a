/* Hostile: declares the accuracy class "bfloat16 junk" -- a class followed
 * by a word. It names no class: posverify must refuse it (exit 2), not take
 * the first word as the class and the rest as the start of the name. */
#include "hostile.h"

HOSTILE_ATTENTION((void)0)
static const pv_impl hostile_impl = {PV_ABI_VERSION, "hostile-accuracy-junk", hostile_attention, NULL, NULL,
                                     "bfloat16 junk", NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &hostile_impl; }
