// posverify list: the claim and property ids.
#include "claims/registry.h"
#include "cli/commands.h"
#include "properties/runner.h"

#include <iostream>

namespace pv::cli {

int cmd_list() {
  std::cout << "claims:\n";
  for (const auto& e : pv::claims::catalogue()) std::cout << "  " << e.id << "\n";
  std::cout << "properties:\n";
  for (const auto& p : pv::prop::property_registry()) std::cout << "  " << p.id << "  " << p.law << "\n";
  return 0;
}

}  // namespace pv::cli
