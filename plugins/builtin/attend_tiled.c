/* The built-in attend() (ABI version 4): every capability of
 * pv_attention_problem (causal and windowed masks with their alignment,
 * padding, GQA, softcap, sinks, ALiBi, the log-sum-exp), computed as a tiled
 * online softmax (attend_kernel.h), so that it is not a twin of posverify's
 * reference. Empty rows: zeros. */
#include "builtin/attend_kernel.h"
