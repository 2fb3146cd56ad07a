// fault_matrix.json and fault_matrix.md: the verdict of every claim and
// property under every planted fault (mutation/fault_matrix.h).
#pragma once

#include "core/json.h"
#include "mutation/fault_matrix.h"

#include <string>

namespace pv::reports {

json to_json(const mutation::fault_matrix& m);
std::string to_markdown(const mutation::fault_matrix& m);

}  // namespace pv::reports
