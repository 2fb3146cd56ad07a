/* Mutant of the built-in attend(): the explicit bias added before the softcap, c tanh((s + bias)/c), so a key
 * masked by -inf gets the logit -c and a weight (the order onnx/onnx#7865 found in the ONNX Attention operator's
 * definition; emmtrix/emx-onnx-cgen PR 731 fixed it in generated C). */
#define PV_ATTEND_NAME "attend_mask_before_cap"
#define PV_ATTEND_BUGS {.mask_before_cap = 1}
#include "builtin/attend_kernel.h"
