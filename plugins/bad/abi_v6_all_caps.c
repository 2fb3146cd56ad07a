/* A plugin built against version 6 of the ABI (not bad: a loader test) that
 * sets every bit of rope_caps, those of version 7 (a rotary offset, frequency
 * factors) too. Its struct pv_rope_config ends before the members of version 7:
 * posverify must never send it such a configuration, whatever its bits say
 * (those laws are "unsupported"), and checks it as before on the others. The
 * rope is the built-in scaled one. */
#define posverify_impl posverify_impl_v7_unused
#include "builtin/scaled_rope.c"
#undef posverify_impl

static const pv_impl impl_v6 = {6, "abi-v6-all-caps", NULL, rope, NULL, NULL, NULL, 0, 0, 0, 0xFFFFFFFFu};
const pv_impl *posverify_impl(void) { return &impl_v6; }
