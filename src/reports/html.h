// Self-contained HTML reports (docs/reports.md): each page carries
// its charts as Vega-Lite specifications and the chart libraries (vega,
// vega-lite, vega-embed from js/package-lock.json) inlined, so it opens
// offline. Every chart has a table of its numbers beside it; a number read
// from a JSON report names its source (data-src="FILE#/json/pointer"), which
// the browser test (tests/reports/html_browser.mjs) compares with the JSON.
#pragma once

#include "core/json.h"

#include <map>
#include <string>
#include <vector>

namespace pv::html {

/// One column of a chart's table: the row field and its header.
struct column {
  std::string field, header;
};

/// A chart and its table: `rows` (objects) are both the Vega-Lite data and the
/// table; `src[i][field]` names where row i's field comes from in a JSON report.
struct chart {
  std::string id, title, caption;
  json spec = json::object();  ///< Vega-Lite, without data (added from rows)
  json rows = json::array();
  std::vector<column> columns;
  std::vector<std::map<std::string, std::string>> src;
};

/// A section of prose and charts.
struct section {
  std::string title, html_intro;  ///< html_intro: already escaped HTML
  std::vector<chart> charts;
};

/// The folder of the chart libraries: $POSVERIFY_JS_DIR, else share/posverify/js
/// of an installed posverify (core/install_dirs.h), else js/node_modules of the
/// source tree (compiled in). Throws std::runtime_error naming the
/// missing file and the command that installs it.
std::string bundle();

/// A whole page: title, an opening paragraph (escaped HTML), the sections.
std::string page(const std::string& title, const std::string& html_opening,
                 const std::vector<section>& sections);

/// HTML-escapes text (&, <, >, ").
std::string esc(const std::string& s);

/// The paragraph naming the posverify that wrote `report` (its "build",
/// reports/build_line.h), or "" when the report records none.
std::string build_html(const json& report);

/// A number as a table shows it: integers whole, others at 4 significant digits.
std::string display(const json& v);

/// Parses a Vega-Lite specification written as a string literal.
json spec(const std::string& text);

/// A chart row from (field, value) pairs.
json row(std::initializer_list<std::pair<const char*, json>> fields);
json num(double v);

/// The HTML page of one check report (`check --out`: <name>.html beside
/// <name>.json); `json_file` is the file name the cells cite.
std::string check_page(const json& report, const std::string& json_file);

/// Reads and parses a JSON file (a regular file of at most max_report_bytes);
/// throws std::runtime_error naming it.
json read_json(const std::string& path);

/// Field `key` of the report entry `o`, which lies at `where` ("FILE#/json/
/// pointer"); throws std::runtime_error "<where>: no "<key>"" when it is not
/// there (a report edited by hand or cut short), never reads a missing field.
const json& need(const json& o, const std::string& key, const std::string& where);

}  // namespace pv::html
