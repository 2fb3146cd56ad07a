/* A plugin built against version 1 of the ABI (not bad: a loader test). Its
 * pv_impl ends after `sinusoid` (version 1 had no `accuracy`), so posverify
 * must not read past it: it loads, is never called with a 16-bit dtype, and
 * is checked at float32 accuracy exactly as before. The RoPE is the panel's
 * float32 ladder. */
#define PV_PANEL_NAME "abi-v1-ladder"
#define posverify_impl posverify_impl_v2_unused
#include "panel/rope_ladder_f32.c"
#undef posverify_impl

typedef struct pv_impl_v1 {
  uint32_t abi_version;
  const char *name;
  void *attention;
  int (*rope)(pv_dtype t, const pv_rope_config *cfg, const double *pos, int64_t n, void *x);
  void *sinusoid;
} pv_impl_v1;
static const pv_impl_v1 impl_v1 = {1, PV_PANEL_NAME, NULL, rope, NULL};
const pv_impl *posverify_impl(void) { return (const pv_impl *)(const void *)&impl_v1; }
