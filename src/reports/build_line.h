// The line that names the posverify which wrote a report: its release, the
// commit of its source tree, the plugin ABI and pipe protocol it speaks, and
// the numeric libraries behind its reference. `posverify --version` prints
// it, and every report carries it at its top (JSON "build", the line under a
// Markdown title, the HTML header, a JUnit property), so that a report or a
// bug names the binary, not only the release.
#pragma once
#include <string>

namespace pv::reports {

/// "posverify 0.1.0 (commit 3c1cc0c3f0a1, plugin ABI 6, pipe protocol 1,
/// MPFR 4.2.0, MPFI 1.5.3, GMP 6.2.1, Boost 1.74.0)"; the commit is
/// "unknown" outside a git checkout and ends in "-dirty" when tracked files
/// differed from it at build time.
std::string build_line();

/// The Markdown of that line under a report's title: "`LINE`\n\n", or ""
/// for a report read back without one (written before it was recorded).
inline std::string build_markdown(const std::string& line) { return line.empty() ? std::string() : "`" + line + "`\n\n"; }

}  // namespace pv::reports
