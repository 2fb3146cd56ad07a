/* The panel member rope_dynamic_from_positions without its declaration (not
 * bad: a test of the length model). It takes dynamic NTK's length from the
 * call's positions, as Hugging Face's dynamic update does, but declares only
 * PV_ROPE_SCALED, so posverify judges it at scaling.length, which it never
 * reads: rejected, with a diagnosis that names the length it reads
 * (tests/blackbox/rope_scaled_test.cpp). */
#define PV_PANEL_ROPE_CAPS PV_ROPE_SCALED
#define PV_PANEL_NAME "rope_dynamic_undeclared"
#include "panel/rope_dynamic_from_positions.c"
