/* The panel member rope_bf16_tables with its bug switched on (see that file). */
#define PV_PANEL_BUG 1
#define PV_PANEL_NAME "panel_rope_bf16_sine_negated"
#include "panel/rope_bf16_tables.c"
