// posverify --version (-V): what this binary is and what it was built with
// (reports/build_line.h), the line at the top of every report.
#include "cli/commands.h"
#include "reports/build_line.h"

#include <iostream>
#include <string>

namespace pv::cli {

std::string version_text() { return reports::build_line(); }

int cmd_version() {
  std::cout << version_text() << "\n";
  return 0;
}

}  // namespace pv::cli
