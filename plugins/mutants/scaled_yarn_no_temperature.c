/* The built-in scaled_rope with one bug: the YaRN attention factor missing. */
#define PV_SCALED_BUG BUG_NO_TEMPERATURE
#define PV_SCALED_NAME "scaled_yarn_no_temperature"
#include "builtin/scaled_rope.c"
