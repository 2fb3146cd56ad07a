/* The built-in scaled_rope with one bug: llama3 multiplies the long wavelengths' speeds by the factor instead of dividing them. */
#define PV_SCALED_BUG BUG_FACTOR_INVERTED
#define PV_SCALED_NAME "scaled_llama3_factor_inverted"
#include "builtin/scaled_rope.c"
