// Where posverify finds the files it reads at run time beside its inputs: the
// Python server package (python/posverify/) and the chart libraries the HTML
// reports inline (js/node_modules). An installed posverify (`cmake --install`,
// the Debian package, the tarball extracted anywhere: docs/packaging.md) finds
// them relative to its own binary, <prefix>/bin/posverify, so that a copy moved
// to another folder still works; a build tree finds them in the source tree,
// whose path is compiled in. cmake/package.cmake installs them to the folders
// named here, and the ctest test package.relocation proves the two agree.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace pv {

/// The folder, under the installation prefix, holding only the Python package
/// posverify/ (a link to lib/python3/dist-packages/posverify, where Debian's
/// python3 finds it): the server's PYTHONPATH gets this folder, never the
/// whole dist-packages, which would put the system's torch ahead of another
/// Python's (--python).
inline constexpr const char* kInstalledPythonDir = "share/posverify/python";
/// The folder, under the installation prefix, of the chart libraries
/// (vega/build/vega.min.js, ...; the layout of js/node_modules).
inline constexpr const char* kInstalledJsDir = "share/posverify/js";

/// <prefix>/<installed> when <prefix>/<installed>/<probe> exists, <prefix>
/// being the folder above the running program's (/proc/self/exe, symbolic
/// links resolved: /usr/bin/posverify gives /usr); else `built_in` (a build
/// tree's program, whose <prefix> holds no such file).
inline std::string installed_or(const char* installed, const char* probe, const char* built_in) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && exe.is_absolute()) {
    const fs::path dir = exe.parent_path().parent_path() / installed;
    if (fs::exists(dir / probe, ec)) return dir.string();
  }
  return built_in;
}

}  // namespace pv
