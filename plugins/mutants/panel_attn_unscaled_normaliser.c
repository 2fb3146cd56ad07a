/* The built-in flash_float (a panel member) with its bug switched on (see that file). */
#define PV_PANEL_BUG 1
#define PV_PANEL_NAME "panel_attn_unscaled_normaliser"
#include "builtin/flash_float.c"
