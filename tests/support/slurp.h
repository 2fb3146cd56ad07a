// The bytes of a file ("" when it cannot be read), for the tests that
// compare reports.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace pv::test {

inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace pv::test
