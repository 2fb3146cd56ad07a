/* The panel member attn_online_f16_kv with its bug switched on (see that file). */
#define PV_PANEL_BUG 1
#define PV_PANEL_NAME "panel_attn_online_f16_pv_sum"
#include "panel/attn_online_f16_kv.c"
