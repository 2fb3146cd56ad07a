/* The panel member rope_dynamic_from_positions with its bug switched on (see that file). */
#define PV_PANEL_BUG 1
#define PV_PANEL_NAME "panel_rope_dynamic_from_positions_no_plus_one"
#include "panel/rope_dynamic_from_positions.c"
