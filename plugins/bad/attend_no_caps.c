/* An attend() plugin declaring no capability and no empty-row convention
 * (not bad: a loader test). posverify must never call it with a problem
 * needing more than heads, strides and a scale -- no GQA, mask, padding,
 * softcap, sinks, ALiBi, log-sum-exp or empty row -- and report the laws that
 * need them unsupported. The kernel is the built-in tiled one. */
#define PV_ATTEND_NAME "attend-no-caps"
#define posverify_impl posverify_impl_all_caps_unused
#include "builtin/attend_kernel.h"
#undef posverify_impl

static const pv_impl impl = {.abi_version = 4, .name = PV_ATTEND_NAME, .attend = attend};
const pv_impl *posverify_impl(void) { return &impl; }
