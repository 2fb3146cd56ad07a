/* A plugin whose posverify_impl() returns a wild pointer: reading it crashes
 * the (child) process that loads the library. posverify must exit 2 naming
 * the crash, and not crash itself. */
#include "posverify/impl.h"

#include <stdint.h>

const pv_impl *posverify_impl(void) { return (const pv_impl *)(uintptr_t)16; }
