// posverify --version (-V): what this binary is and what it was built with,
// so that a report or a bug can name it: the release, the commit of the
// source tree (cmake/git_commit.cmake, at build time), the versions of the
// plugin ABI (include/posverify/impl.h) and of the pipe protocol
// (docs/protocol.md) it speaks, and the numeric libraries behind the
// reference (MPFR, MPFI, GMP, Boost).
#include "cli/commands.h"
#include "posverify/impl.h"
#include "sandbox/process_adapter.h"

#include <boost/version.hpp>
#include <gmp.h>
#include <mpfi.h>
#include <mpfr.h>

#include <iostream>
#include <string>

namespace pv::cli {

const char* git_commit();  // generated: cmake/git_commit.cmake

std::string version_text() {
  const std::string commit = git_commit();
  std::string boost = std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) +
                      "." + std::to_string(BOOST_VERSION % 100);
  return std::string("posverify ") + POSVERIFY_VERSION + " (commit " + (commit.empty() ? "unknown" : commit) +
         ", plugin ABI " + std::to_string(PV_ABI_VERSION) + ", pipe protocol " +
         std::to_string(pv::sandbox::kProtocolVersion) + ", MPFR " + mpfr_get_version() + ", MPFI " +
         mpfi_get_version() + ", GMP " + gmp_version + ", Boost " + boost + ")";
}

int cmd_version() {
  std::cout << version_text() << "\n";
  return 0;
}

}  // namespace pv::cli
