/* The panel member rope_cached_table_f32 with its bug switched on (see that file). */
#define PV_PANEL_BUG 1
#define PV_PANEL_NAME "panel_rope_short_cache"
#include "panel/rope_cached_table_f32.c"
