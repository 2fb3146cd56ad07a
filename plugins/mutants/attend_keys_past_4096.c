/* Mutant of the built-in attend(): a row's scores kept in a buffer of 4096 logits, the keys past it dropped instead
 * of the call refused (vLLM's paged-attention kernel kept every logit of a row in shared memory, which set its
 * longest context: vllm-project/vllm#905, PR 1154). Right at every size the default profile draws; only a model's
 * cache or prefill of more than 4096 keys (--profile models) shows it. */
#define PV_ATTEND_NAME "attend_keys_past_4096"
#define PV_ATTEND_BUGS {.key_limit = 4096}
#include "builtin/attend_kernel.h"
