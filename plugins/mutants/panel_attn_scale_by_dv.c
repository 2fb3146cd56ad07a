/* The panel member attn_f16_kv with its bug switched on (see that file). */
#define PV_PANEL_BUG 1
#define PV_PANEL_NAME "panel_attn_scale_by_dv"
#include "panel/attn_f16_kv.c"
