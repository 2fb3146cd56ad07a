#include "reports/build_line.h"

#include "posverify/impl.h"
#include "sandbox/process_adapter.h"

#include <boost/version.hpp>
#include <gmp.h>
#include <mpfi.h>
#include <mpfr.h>

namespace pv {
const char* git_commit();  // generated: cmake/git_commit.cmake
}

namespace pv::reports {

std::string build_line() {
  const std::string commit = git_commit();
  const std::string boost = std::to_string(BOOST_VERSION / 100000) + "." +
                            std::to_string(BOOST_VERSION / 100 % 1000) + "." + std::to_string(BOOST_VERSION % 100);
  return std::string("posverify ") + POSVERIFY_VERSION + " (commit " + (commit.empty() ? "unknown" : commit) +
         ", plugin ABI " + std::to_string(PV_ABI_VERSION) + ", pipe protocol " +
         std::to_string(pv::sandbox::kProtocolVersion) + ", MPFR " + mpfr_get_version() + ", MPFI " +
         mpfi_get_version() + ", GMP " + gmp_version + ", Boost " + boost + ")";
}

}  // namespace pv::reports
