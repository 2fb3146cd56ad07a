// The black-box laws of each operation of the plugin interface, run on the
// library of a run (check_run.h): attention (attention_laws.cpp), RoPE
// (rope_laws.cpp, with its position sweep and diagnoses) and the sinusoid
// (sinusoid_laws.cpp). attention.shapes is shapes.h.
#pragma once

#include "blackbox/law_result.h"
#include "blackbox/check_run.h"
#include "core/json.h"

#include <vector>

namespace pv::blackbox {

std::vector<law_result> attention_laws(const check_run& cx);
std::vector<law_result> rope_laws(const check_run& cx, json& sweep, json& diagnosis);
std::vector<law_result> sinusoid_laws(const check_run& cx);

}  // namespace pv::blackbox
