/* The panel member attn_f16_accum with its bug switched on (see that file). */
#define PV_PANEL_BUG 1
#define PV_PANEL_NAME "panel_attn_f16_no_max_sub"
#include "panel/attn_f16_accum.c"
