/* The panel member rope_angle_ladder with its bug switched on (see that file). */
#define PV_PANEL_BUG 1
#define PV_PANEL_NAME "panel_rope_angle_ladder_starts_late"
#include "panel/rope_angle_ladder.c"
