// The black-box laws of each operation of the plugin interface, run on the
// library of a run (check_run.h): attention (attention_laws.cpp), RoPE
// (rope_laws.cpp, with its position sweep and diagnoses), the sinusoid
// (sinusoid_laws.cpp) and attend, attention as models ship it (attend_laws.cpp). attention.shapes is shapes.h.
//
// Each file registers its laws as a group of its operation (law_group_registrar
// at its end); the run (run.cpp) walks the groups of the operations the
// library provides, in the order of the operations (sandbox/operations.h),
// then of their rank. A new operation's laws register the same way.
#pragma once

#include "blackbox/law_result.h"
#include "blackbox/check_run.h"
#include "core/json.h"
#include "sandbox/operations.h"

#include <vector>

namespace pv::blackbox {

/// One group of laws of an operation: what it found, and the position sweep
/// and diagnoses it adds to (RoPE).
using law_group_fn = std::vector<law_result> (*)(const check_run& cx, json& sweep, json& diagnosis);
struct law_group {
  sandbox::op op;
  int rank = 0;  ///< the order of the groups of one operation
  law_group_fn run = nullptr;
};
/// Every registered group, ordered by operation, then rank.
std::vector<law_group> law_groups();
struct law_group_registrar {
  law_group_registrar(sandbox::op op, int rank, law_group_fn run);
};

std::vector<law_result> attention_laws(const check_run& cx);
std::vector<law_result> rope_laws(const check_run& cx, json& sweep, json& diagnosis);
std::vector<law_result> sinusoid_laws(const check_run& cx);
std::vector<law_result> attend_laws(const check_run& cx);

}  // namespace pv::blackbox
