// The HTML page of one `posverify check` report: error over tolerance per law
// (and per shape when the report has shapes), and the RoPE position sweep.
#include "reports/html.h"

#include <algorithm>
#include <cstdlib>

namespace pv::html {

namespace {

std::string str(const json& o, const char* key) {
  const json* v = o.find(key);
  return v && v->type() == json::kind::string ? v->as_string() : std::string();
}

const char* ratio_spec = R"({
  "width": 420, "height": {"step": 14},
  "layer": [
    {"mark": {"type": "bar"},
     "encoding": {
       "y": {"field": "law", "type": "nominal", "sort": null, "title": null},
       "x": {"field": "ratio", "type": "quantitative", "title": "worst error / tolerance"},
       "color": {"field": "verdict", "type": "nominal", "scale": {"domain": ["passed", "failed", "insufficient"],
                 "range": ["#4c78a8", "#d62728", "#ff7f0e"]}},
       "tooltip": [{"field": "law"}, {"field": "ratio", "format": ".4g"}, {"field": "verdict"}]}},
    {"mark": {"type": "rule", "color": "#b00", "strokeDash": [4, 3]}, "encoding": {"x": {"datum": 1}}}
  ]})";

const char* sweep_spec = R"({
  "width": 460, "height": 300,
  "layer": [
    {"mark": {"type": "line", "point": true},
     "encoding": {
       "x": {"field": "position", "type": "quantitative", "scale": {"type": "log"}, "title": "position"},
       "y": {"field": "ratio", "type": "quantitative", "scale": {"type": "log"},
             "title": "max error / tolerance at this position"},
       "color": {"field": "series", "type": "nominal", "title": "configuration / dtype"},
       "tooltip": [{"field": "series"}, {"field": "position"}, {"field": "ratio", "format": ".4g"}]}},
    {"mark": {"type": "rule", "color": "#b00", "strokeDash": [4, 3]}, "encoding": {"y": {"datum": 1}}}
  ]})";

}  // namespace

std::string check_page(const json& report, const std::string& json_file) {
  const json* lib = report.find("implementation");
  std::string name = lib && lib->type() == json::kind::object ? str(*lib, "name") : std::string();
  if (name.empty()) name = json_file;
  std::vector<section> sections;

  section laws{"Error over tolerance per law", "", {}};
  chart per_law{"laws", "Worst error / tolerance per law", "", spec(ratio_spec), json::array(),
                {{"law", "law"}, {"verdict", "verdict"}, {"ratio", "worst error / tolerance"}, {"cases", "cases"}}, {}};
  bool has_shapes = false;
  if (const json* ls = report.find("laws")) {
    std::size_t i = 0;
    for (const auto& kv : ls->items()) {
      const json& l = kv.second;
      const json* w = l.find("worst");
      if (w && w->type() == json::kind::object)
        if (const json* r = w->find("ratio")) {
          const std::string ptr = json_file + "#/laws/" + std::to_string(i);
          json rw = row({{"law", json::string(str(l, "id"))}, {"verdict", json::string(str(l, "verdict"))},
                         {"ratio", *r}, {"cases", l.find("cases") ? *l.find("cases") : json()}});
          if (const json* sh = l.find("shape")) {
            rw.set("shape", *sh);
            has_shapes = true;
          }
          per_law.rows.push(rw);
          per_law.src.push_back({{"law", ptr + "/id"}, {"verdict", ptr + "/verdict"}, {"ratio", ptr + "/worst/ratio"},
                                 {"cases", ptr + "/cases"}});
        }
      ++i;
    }
  }
  // Failed laws can lie orders of magnitude above 1: the axis stops at 10 and
  // clamps longer bars there (the table keeps every value).
  double top = 1.05;
  for (const auto& kv : per_law.rows.items())
    top = std::max(top, std::min(10.0, std::strtod(number_text(*kv.second.find("ratio")).c_str(), nullptr) * 1.05));
  json x = json::object();
  x.set("domainMin", json::integer(0));
  x.set("domainMax", num(top));
  x.set("clamp", json::boolean(true));
  // layer[0].encoding.x.scale: rebuilt, since json has no mutable lookup
  json layers = json::array();
  std::size_t li = 0;
  for (const auto& lk : per_law.spec.find("layer")->items()) {
    json layer = lk.second;
    if (li++ == 0) {
      json enc = *layer.find("encoding"), xe = *enc.find("x");
      xe.set("scale", x);
      enc.set("x", xe);
      layer.set("encoding", enc);
    }
    layers.push(layer);
  }
  per_law.spec.set("layer", layers);
  if (has_shapes) per_law.columns.insert(per_law.columns.begin() + 1, {"shape", "shape"});
  laws.html_intro = "<p>Each law's worst case over the cases run, as the error divided by the tolerance the law "
                    "derives for that case (the dashed line is 1: above it the law fails). Laws without a "
                    "measured error (verdicts only) are left out of the chart.</p>";
  if (per_law.rows.size()) laws.charts.push_back(std::move(per_law));
  sections.push_back(std::move(laws));

  if (const json* sw = report.find("sweep"); sw && sw->size()) {
    section s{"Position sweep (RoPE)",
              "<p>The error of one head at positions 2<sup>j</sup> and 2<sup>j</sup> + 1 against the tolerance "
              "at that position, per configuration and dtype (log axes; the dashed line is 1). A series "
              "marked <em>not run</em> in the report is absent.</p>",
              {}};
    chart c{"sweep", "Error / tolerance against position", "", spec(sweep_spec), json::array(),
            {{"series", "configuration / dtype"}, {"position", "position"}, {"ratio", "error / tolerance"},
             {"max_error", "max error"}}, {}};
    std::size_t si = 0;
    for (const auto& kv : sw->items()) {
      const json& one = kv.second;
      const json* rows = one.find("rows");
      if (!one.find("status") && rows) {
        const std::string series = str(one, "config") + " / " + str(one, "dtype");
        std::size_t ri = 0;
        for (const auto& rkv : rows->items()) {
          const json& r = rkv.second;
          const std::string ptr = json_file + "#/sweep/" + std::to_string(si) + "/rows/" + std::to_string(ri++);
          c.rows.push(row({{"series", json::string(series)}, {"position", need(r, "position", ptr)},
                           {"ratio", need(r, "error_over_tolerance", ptr)}, {"max_error", need(r, "max_error", ptr)}}));
          c.src.push_back({{"position", ptr + "/position"}, {"ratio", ptr + "/error_over_tolerance"},
                           {"max_error", ptr + "/max_error"}});
        }
      }
      ++si;
    }
    if (c.rows.size()) s.charts.push_back(std::move(c));
    sections.push_back(std::move(s));
  }

  std::string opening = build_html(report) + "<p>The HTML view of <code>" + esc(json_file) + "</code> (written beside it by "
                        "<code>posverify check --out</code>); the verdicts and findings in full are in the "
                        "Markdown report of the same name.";
  if (const json* sum = report.find("summary")) {
    opening += " Laws:";
    for (const auto& kv : sum->items()) opening += " " + esc(kv.first) + " " + esc(display(kv.second)) + ";";
  }
  opening += "</p>";
  return page("posverify check: " + name, opening, sections);
}

}  // namespace pv::html
