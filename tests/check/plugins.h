// Paths of the plugins built for the check tests: cmake/check.cmake compiles
// them in as "name=path,name=path" lists.
#pragma once

#include <map>
#include <string>

namespace pv::check_test {

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

}  // namespace pv::check_test
