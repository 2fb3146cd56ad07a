/* The lawful counterpart of declines.c: the float64 sinusoid of
 * plain_double.c for base 10000 only, declining (returns 1) every other base.
 * A base is a configuration (sandbox/operations.h), so these declines
 * contradict nothing: the laws pass on the cases of base 10000, unless
 * --min-cases asks for more of them. */
#include "hostile.h"

static int base_sinusoid(pv_dtype t, int64_t d, double base, const double *pos, int64_t n, void *out) {
  if (base != 10000) return 1;
  return sinusoid(t, d, base, pos, n, out);
}

static const pv_impl bases_impl = {PV_ABI_VERSION, "hostile-declines-bases", NULL, NULL, base_sinusoid, NULL, NULL, 0, 0, 0};
const pv_impl *posverify_impl(void) { return &bases_impl; }
