#include "reports/html.h"

#include "core/files.h"
#include "core/install_dirs.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace pv::html {

namespace {

/// The three libraries, in load order (vega-embed needs vega and vega-lite).
constexpr const char* libraries[] = {"vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js",
                                     "vega-embed/build/vega-embed.min.js"};

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// JSON for inside <script>: every '<' written as "\u003c" (the same string
/// in JSON and in JavaScript; JSON has '<' only inside strings), so that no
/// "</script>" ends the element early and no "<!--" or "<script" puts the
/// HTML parser into the script-data escaped states, where the rest of the
/// page would be swallowed (HTML Living Standard, 13.2.5.4 and following).
std::string script_safe(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '<') out += "\\u003c";
    else out += c;
  }
  return out;
}

std::string cell_value(const json& v) {
  switch (v.type()) {
    case json::kind::null: return "";  // shown as a dash (display())
    case json::kind::boolean: return v.as_bool() ? "true" : "false";
    case json::kind::integer: return std::to_string(v.as_integer());
    case json::kind::string: return v.as_string();
    default: return number_text(v);
  }
}

std::string table(const chart& c) {
  std::string t = "<table class=\"numbers\" data-chart=\"" + esc(c.id) + "\">\n<caption>" + esc(c.title) +
                  ": the numbers</caption>\n<thead><tr>";
  for (const auto& col : c.columns) t += "<th>" + esc(col.header) + "</th>";
  t += "</tr></thead>\n<tbody>\n";
  std::size_t i = 0;
  for (const auto& kv : c.rows.items()) {
    t += "<tr data-row=\"" + std::to_string(i) + "\">";
    for (const auto& col : c.columns) {
      const json* v = kv.second.find(col.field);
      const json val = v ? *v : json();
      t += "<td data-field=\"" + esc(col.field) + "\" data-value=\"" + esc(cell_value(val)) + "\"";
      if (i < c.src.size())
        if (auto s = c.src[i].find(col.field); s != c.src[i].end()) t += " data-src=\"" + esc(s->second) + "\"";
      t += ">" + esc(display(val)) + "</td>";
    }
    t += "</tr>\n";
    ++i;
  }
  return t + "</tbody></table>\n";
}

const char* style = R"(
body { font-family: system-ui, sans-serif; max-width: 78rem; margin: 1rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.2rem; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05rem; }
.pair { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
.chart { min-width: 22rem; }
table.numbers { border-collapse: collapse; font-size: 0.85rem; max-height: 30rem; display: block; overflow: auto; }
table.numbers caption { text-align: left; font-weight: 600; padding-bottom: 0.3rem; }
table.numbers th, table.numbers td { border: 1px solid #ddd; padding: 0.15rem 0.45rem; text-align: right; }
table.numbers th { background: #f4f4f4; position: sticky; top: 0; }
.verdict-fails, .verdict-failed { color: #b00; font-weight: 600; }
p.caption { color: #444; max-width: 60rem; }
)";

}  // namespace

std::string build_html(const json& report) {
  const json* b = report.find("build");
  if (!b || b->type() != json::kind::string) return "";
  return "<p class=\"build\"><code>" + esc(b->as_string()) + "</code></p>\n";
}

std::string esc(const std::string& s) {
  std::string out;
  for (char ch : s) switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  return out;
}

std::string display(const json& v) {
  if (v.is_null()) return "\u2014";
  if (v.type() != json::kind::number) return cell_value(v);
  const double d = std::strtod(number_text(v).c_str(), nullptr);
  char buf[40];
  if (d == std::trunc(d) && std::fabs(d) < 1e15)  // integers as integers
    std::snprintf(buf, sizeof buf, "%.0f", d);
  else
    std::snprintf(buf, sizeof buf, "%.4g", d);
  return buf;
}

json spec(const std::string& text) { return json::parse(text); }

json row(std::initializer_list<std::pair<const char*, json>> fields) {
  json o = json::object();
  for (const auto& f : fields) o.set(f.first, f.second);
  return o;
}

json num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return json::number(buf);
}

std::string bundle() {
  static std::string cached;
  if (!cached.empty()) return cached;
  const char* env = std::getenv("POSVERIFY_JS_DIR");
  const std::string dir =
      env && *env ? std::string(env) : installed_or(kInstalledJsDir, libraries[0], POSVERIFY_JS_DIR);
  std::string out;
  for (const char* lib : libraries) {
    const std::string path = dir + "/" + lib;
    std::ifstream probe(path);
    if (!probe)
      throw std::runtime_error("the HTML reports need the chart libraries, and " + path +
                               " is missing: run `npm ci --prefix js` in the posverify source tree "
                               "(scripts/posverify-setup does), or point POSVERIFY_JS_DIR at a "
                               "node_modules folder holding vega, vega-lite and vega-embed");
    // Inlined as it is: a "</script" or "<!--" in it would end or confuse the
    // element, and escaping could change the code (inside regular expressions).
    const std::string code = read_text(path);
    std::string lower = code;
    for (auto& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    if (lower.find("</script") != std::string::npos || lower.find("<!--") != std::string::npos)
      throw std::runtime_error(path + " contains \"</script\" or \"<!--\" and cannot be inlined into a page");
    out += "<script>/* " + std::string(lib) + " (js/package-lock.json) */\n" + code + "\n</script>\n";
  }
  cached = out;
  return cached;
}

std::string page(const std::string& title, const std::string& html_opening, const std::vector<section>& sections) {
  const std::string libs = bundle();
  std::string h = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + esc(title) +
                  "</title>\n<style>" + style + "</style>\n" + libs + "</head>\n<body>\n<h1>" + esc(title) +
                  "</h1>\n" + html_opening + "\n";
  json ids = json::array();
  for (const auto& s : sections) {
    h += "<section>\n<h2>" + esc(s.title) + "</h2>\n" + s.html_intro + "\n";
    for (const auto& c : s.charts) {
      if (c.spec.is_null()) {  // a table alone
        h += table(c);
        continue;
      }
      json sp = c.spec;
      sp.set("$schema", json::string("https://vega.github.io/schema/vega-lite/v6.json"));
      json data = json::object();
      data.set("values", c.rows);
      sp.set("data", data);
      h += "<h3>" + esc(c.title) + "</h3>\n";
      if (!c.caption.empty()) h += "<p class=\"caption\">" + esc(c.caption) + "</p>\n";
      h += "<div class=\"pair\">\n<div class=\"chart\" id=\"" + esc(c.id) + "\" role=\"img\" aria-label=\"" +
           esc(c.title) + "\"></div>\n" + table(c) + "</div>\n";
      h += "<script type=\"application/json\" id=\"" + esc(c.id) + "-spec\">" + script_safe(sp.dump()) +
           "</script>\n";
      ids.push(json::string(c.id));
    }
    h += "</section>\n";
  }
  // Renders every chart as SVG; data-rendered on <body> tells a test (or a
  // reader's tools) that all charts are drawn, or that one failed.
  h += "<script>\n(function () {\n  const ids = " + script_safe(ids.dump()) +
       ";\n  Promise.all(ids.map(function (id) {\n"
       "    const spec = JSON.parse(document.getElementById(id + '-spec').textContent);\n"
       "    return vegaEmbed('#' + id, spec, {renderer: 'svg', actions: false});\n"
       "  })).then(function () { document.body.dataset.rendered = 'yes'; },\n"
       "    function (e) { console.error('chart failed: ' + e); document.body.dataset.rendered = 'error'; });\n"
       "})();\n</script>\n</body>\n</html>\n";
  return h;
}

const json& need(const json& o, const std::string& key, const std::string& where) {
  const json* v = o.type() == json::kind::object ? o.find(key) : nullptr;
  if (!v) throw std::runtime_error(where + ": no \"" + key + "\"" + (o.type() == json::kind::object ? "" : " (not an object)"));
  return *v;
}

json read_json(const std::string& path) {
  // a regular file of bounded size: /dev/zero or a FIFO is refused, not read
  const std::string text = read_regular_file(path, max_report_bytes);
  try {
    return json::parse(text);
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": not valid JSON: " + e.what());
  }
}

}  // namespace pv::html
