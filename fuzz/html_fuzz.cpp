// libFuzzer target: the HTML page of a check report (reports/html_check.cpp,
// behind `posverify html --check FILE` and `check --out`) built from
// arbitrary bytes read as the report's JSON. Invariants: no crash, only
// std::runtime_error (text that is not JSON, an entry missing a field, named),
// and a page whose script elements all close where they should: as many
// "<script" as "</script>", and no "<!--" (report text inside a script is
// written with '<' as \u003c, outside it HTML-escaped).
#include "core/json.h"
#include "reports/html.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace {

std::size_t count(const std::string& s, const std::string& part) {
  std::size_t n = 0;
  for (auto i = s.find(part); i != std::string::npos; i = s.find(part, i + 1)) ++n;
  return n;
}

}  // namespace

// The page inlines the chart libraries (html::bundle()): three one-line
// stand-ins in a scratch folder, so that the target runs without js/node_modules.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("posverify-fuzz-js-" + std::to_string(::getpid()));
  for (const char* lib : {"vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js",
                          "vega-embed/build/vega-embed.min.js"}) {
    fs::create_directories((dir / lib).parent_path());
    std::ofstream(dir / lib) << "/* stand-in */\n";
  }
  ::setenv("POSVERIFY_JS_DIR", dir.c_str(), 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string page;
  try {
    page = pv::html::check_page(pv::json::parse(text), "fuzz.json");
  } catch (const std::runtime_error&) {
    return 0;  // a clear error: fine
  }
  if (count(page, "<script") != count(page, "</script>")) std::abort();
  if (page.find("<!--") != std::string::npos) std::abort();
  return 0;
}
