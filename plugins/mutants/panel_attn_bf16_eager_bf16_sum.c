/* The panel member attn_bf16_eager with its bug switched on (see that file). */
#define PV_PANEL_BUG 1
#define PV_PANEL_NAME "panel_attn_bf16_eager_bf16_sum"
#include "panel/attn_bf16_eager.c"
