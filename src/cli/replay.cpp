// posverify replay ID HEX: rerun exactly one failing case of a property.
#include "cli/args.h"
#include "cli/commands.h"
#include "properties/reproduce.h"
#include "properties/runner.h"

#include <iostream>
#include <stdexcept>

namespace pv::cli {

int cmd_replay(const std::vector<std::string>& args) {
  if (args.size() != 2) throw usage_error("replay takes a property id and a reproduce string");
  const auto* p = pv::prop::find_property(args[0]);
  if (!p) throw usage_error("replay: no property named '" + args[0] + "'");
  pv::prop::run_options opt;
  opt.reproduce = args[1];
  try {  // checked before anything runs: an empty string would mean "no replay"
    pv::prop::decode_reproduce(opt.reproduce, opt.max_size);
  } catch (const std::invalid_argument& e) {
    throw usage_error(std::string("replay: ") + e.what());
  }
  const pv::property_result r = pv::prop::run_property(*p, opt);
  print_property(r, std::cout);
  if (r.verdict == pv::verdict::not_reproduced) {
    // the case ran and holds: the string names no failure of this property
    // (a string of another property, made up, or a failure fixed since)
    std::cerr << "posverify: replay: the reproduce string gives a case of " << args[0]
              << " that holds: it reproduces no failure (a string of another property or of a fixed "
                 "failure?)\n";
    return 2;
  }
  return r.verdict == pv::verdict::passed ? 0 : 1;
}

}  // namespace pv::cli
