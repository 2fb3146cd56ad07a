// Shared pieces of the check tests: the paths of the plugins built for them
// (cmake/plugins.cmake compiles them in as
// "name=path,name=path" lists), the posverify binary, report folders.
#pragma once

#include "support/slurp.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/stat.h>

namespace pv::plugin_test {

/// Parses a "name=path,name=path" list into name -> path.
inline std::map<std::string, std::string> plugin_map(const char* list) {
  std::map<std::string, std::string> m;
  const std::string s = list;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t c = s.find(',', i);
    if (c == std::string::npos) c = s.size();
    const std::string item = s.substr(i, c - i);
    const std::size_t eq = item.find('=');
    m[item.substr(0, eq)] = item.substr(eq + 1);
    i = c + 1;
  }
  return m;
}

/// The posverify binary under test ($POSVERIFY_BIN, set by ctest).
inline std::string bin() {
  const char* b = std::getenv("POSVERIFY_BIN");
  return b ? b : "posverify";
}

/// A folder for a test's reports (created), below POSVERIFY_TEST_OUT.
inline std::string out_dir(const std::string& sub) {
  std::string base = POSVERIFY_TEST_OUT;
  ::mkdir(base.c_str(), 0755);
  std::string d = base + "/" + sub;
  ::mkdir(d.c_str(), 0755);
  return d;
}

/// An emptied folder for a test's reports, below POSVERIFY_TEST_OUT.
inline std::string fresh_out_dir(const std::string& sub) {
  const std::string d = out_dir(sub);
  for (const auto& e : std::filesystem::directory_iterator(d)) std::filesystem::remove_all(e.path());
  return d;
}

/// The whole content of a file ("" if it cannot be read): support/slurp.h.
using pv::test::slurp;

}  // namespace pv::plugin_test
