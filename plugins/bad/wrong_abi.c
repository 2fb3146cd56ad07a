/* A plugin built against a different ABI version: posverify must refuse it
 * (exit 2) and say why. */
#include "posverify/impl.h"

#include <stddef.h>

static const pv_impl impl = {PV_ABI_VERSION + 1, "bad-wrong-abi", NULL, NULL, NULL, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &impl; }
