/* A plugin built against version 3 of the ABI (not bad: a loader test). Its
 * pv_impl ends after `accuracy` (version 3 had no attend), and the bytes
 * that follow it in memory look like a version-4 attend() with every
 * capability declared: posverify must not read past the members of the
 * version a plugin declares, so it loads, provides no attend (those laws are
 * not run) and its attention is checked as before. The attention is the
 * built-in plain float one. */
#define posverify_impl posverify_impl_v4_unused
#include "builtin/plain_float.c"
#undef posverify_impl

typedef struct pv_impl_v3 {
  uint32_t abi_version;
  const char *name;
  int (*attention)(pv_dtype t, const void *q, const void *k, const void *v, int64_t n_q, int64_t n_k, int64_t d,
                   int64_t d_v, void *out);
  void *rope;
  void *sinusoid;
  const char *accuracy;
} pv_impl_v3;
/* what a reader past the version-3 members would find: a non-NULL attend
 * (calling it crashes), all capabilities, an invalid empty-row convention */
static const struct {
  pv_impl_v3 impl;
  void *attend;
  uint32_t caps, empty_rows;
} blob = {{3, "abi-v3-plain-float", attention, NULL, NULL, NULL}, (void *)16, 0xFFu, 7u};
const pv_impl *posverify_impl(void) { return (const pv_impl *)(const void *)&blob.impl; }
