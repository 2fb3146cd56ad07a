/* The panel member rope_ladder_f32 with its bug switched on (see that file). */
#define PV_PANEL_BUG 1
#define PV_PANEL_NAME "panel_rope_ladder_starts_late"
#include "panel/rope_ladder_f32.c"
