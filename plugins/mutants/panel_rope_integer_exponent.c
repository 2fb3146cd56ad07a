/* The panel member rope_powf_table_f32 with its bug switched on (see that file). */
#define PV_PANEL_BUG 1
#define PV_PANEL_NAME "panel_rope_integer_exponent"
#include "panel/rope_powf_table_f32.c"
