// posverify html: reports/index.html from the JSON reports of a folder
// (claims, error budgets, mutation, fault matrix, panel), with the chapter's
// pictures drawn here from the project's own functions (RoPE q.k, the wheel,
// the ulps of the 720 orders); the figures the claims computed (the wheel's
// period, the first collisions of several speeds) are read from claims.json
// and cite it. `verify` writes the same page beside claims.json (index_page()).
#include "cli/commands.h"
#include "cli/options.h"
#include "reports/claims_report.h"
#include "numerics/rope.h"
#include "core/seeded.h"
#include "claims/proofs/bitwise_study.h"
#include "reports/html.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <numbers>

namespace pv::cli {

namespace {

using html::chart;
using html::column;
using html::num;
using html::row;
using html::section;
using html::spec;

std::string str(const json& o, const char* key) {
  const json* v = o.find(key);
  return v && v->type() == json::kind::string ? v->as_string() : std::string();
}

/// Index of the claim `id` in claims.json's "claims", or -1.
long claim_index(const json& claims, const std::string& id) {
  long i = 0;
  if (const json* cs = claims.find("claims"))
    for (const auto& kv : cs->items()) {
      if (str(kv.second, "id") == id) return i;
      ++i;
    }
  return -1;
}

const json* claim_value(const json& claims, long idx, const char* key) {
  if (idx < 0) return nullptr;
  const json& c = claims.find("claims")->items()[std::size_t(idx)].second;
  const json* v = c.find("values");
  return v ? v->find(key) : nullptr;
}

/// An inline number that cites its source: the browser test compares it with the JSON.
std::string cited(const json& v, const std::string& src) {
  return "<span class=\"cited\" data-value=\"" + html::esc(v.type() == json::kind::string ? v.as_string()
                                                                                          : number_text(v)) +
         "\" data-src=\"" + html::esc(src) + "\">" + html::esc(html::display(v)) + "</span>";
}

// ---- RoPE: q.k depends only on m - n -------------------------------------

constexpr std::size_t rope_d = 8;  // four speeds 10000^(-2i/8): 1, 0.1, 0.01, 0.001 rad per position

section rope_section() {
  seeded g(2026);
  double q[rope_d], k[rope_d];
  for (auto& x : q) x = g.real(-1, 1);
  for (auto& x : k) x = g.real(-1, 1);
  const auto L = rope_ladder<double>(rope_d, 10000.0, pairing::adjacent);
  auto dotmn = [&](double m, double n) { return rope_dot(L, q, &m, k, &n); };

  chart flat{"rope-fixed-distance", "q·k against the query position m, at fixed distances m − n",
             "Each line keeps m − n fixed and moves both positions: the dot product stays level.",
             spec(R"J({"width": 420, "height": 260, "mark": {"type": "line", "point": true},
               "encoding": {"x": {"field": "m", "type": "quantitative", "title": "query position m"},
                            "y": {"field": "dot", "type": "quantitative", "title": "<R(m) q, R(n) k>"},
                            "color": {"field": "distance", "type": "nominal", "title": "m − n"}}})J"),
             json::array(), {{"distance", "m − n"}, {"m", "m"}, {"n", "n"}, {"dot", "q·k"}}, {}};
  for (int dist : {0, 3, 10})
    for (int m = 10; m <= 200; m += 10)
      flat.rows.push(row({{"distance", json::integer(dist)}, {"m", json::integer(m)}, {"n", json::integer(m - dist)},
                          {"dot", num(dotmn(m, m - dist))}}));
  chart rel{"rope-distance", "q·k against the distance m − n, from three key positions n",
            "The three curves lie on top of each other: only m − n matters.",
            spec(R"J({"width": 420, "height": 260, "mark": {"type": "line", "strokeWidth": 1.5},
              "encoding": {"x": {"field": "distance", "type": "quantitative", "title": "m − n"},
                           "y": {"field": "dot", "type": "quantitative", "title": "<R(m) q, R(n) k>"},
                           "color": {"field": "n", "type": "nominal", "title": "key position n"},
                           "strokeDash": {"field": "n", "type": "nominal"}}})J"),
            json::array(), {{"n", "n"}, {"distance", "m − n"}, {"dot", "q·k"}}, {}};
  for (int n : {0, 100, 1000})
    for (int dist = -40; dist <= 40; dist += 2)
      rel.rows.push(row({{"n", json::integer(n)}, {"distance", json::integer(dist)}, {"dot", num(dotmn(n + dist, n))}}));
  return {"RoPE: only the distance matters",
          "<p>One query q and one key k (8 components, uniform in [−1, 1], splitmix64 seed 2026), rotated by RoPE "
          "(θ = 10000, adjacent pairs) at positions m and n and multiplied in float64 "
          "(<code>rope_dot</code> of <code>src/numerics/rope.h</code>).</p>",
          {std::move(flat), std::move(rel)}};
}

// ---- the wheel and the collision horizon ---------------------------------

section wheel_section(const json& claims) {
  const long c_idx = claim_index(claims, "carousel.c"), d_idx = claim_index(claims, "carousel.d");
  const int step = 30;  // degrees per position, the carousel of problem 4
  chart wheel{"wheel", "One speed: 30° per position on the wheel",
              "Position p sits at angle 30 p mod 360; positions 12 apart share a seat.",
              spec(R"J({"width": 300, "height": 300,
                "layer": [
                  {"mark": {"type": "point", "filled": true, "size": 90},
                   "encoding": {"x": {"field": "x", "type": "quantitative", "scale": {"domain": [-1.3, 1.3]}, "axis": null},
                                "y": {"field": "y", "type": "quantitative", "scale": {"domain": [-1.3, 1.3]}, "axis": null},
                                "color": {"field": "turn", "type": "nominal", "title": "turn"}}},
                  {"mark": {"type": "text", "dx": 0, "dy": -11, "fontSize": 10},
                   "encoding": {"x": {"field": "lx", "type": "quantitative"}, "y": {"field": "ly", "type": "quantitative"},
                                "text": {"field": "label"}}}]})J"),
              json::array(), {{"position", "position"}, {"angle_deg", "angle (degrees)"}, {"turn", "turn"}}, {}};
  std::map<std::int64_t, std::string> seat;  // angle -> the positions on it
  for (int p = 0; p < 24; ++p) {
    const std::int64_t a = (std::int64_t(step) * p) % 360;
    seat[a] += (seat[a].empty() ? "" : ", ") + std::to_string(p);
  }
  for (int p = 0; p < 24; ++p) {
    const std::int64_t a = (std::int64_t(step) * p) % 360;
    const double r = a * std::numbers::pi / 180;
    wheel.rows.push(row({{"position", json::integer(p)}, {"angle_deg", json::integer(a)},
                         {"turn", json::integer(p / 12 + 1)}, {"x", num(std::cos(r))},
                         {"y", num(std::sin(r))}, {"lx", num(1.17 * std::cos(r))}, {"ly", num(1.17 * std::sin(r))},
                         {"label", json::string(p < 12 ? seat[a] : "")}}));
  }
  // Several speeds: the first collision of k = 1 .. 4 speeds, as the claim
  // carousel.d found it (its study "first_collision_by_speed_count").
  const json* study = nullptr;
  if (d_idx >= 0) study = claims.find("claims")->items()[std::size_t(d_idx)].second.find("first_collision_by_speed_count");
  const std::string study_src = "claims.json#/claims/" + std::to_string(d_idx) + "/first_collision_by_speed_count";
  const json* searched = study ? study->find("search_limit") : nullptr;
  chart horizon{"horizon", "First collision with several speeds",
                "The first distance at which every speed's angle comes within 1° of a whole turn (log scale); "
                "an empty entry: none up to 10^7.",
                spec(R"J({"width": 360, "height": 260, "mark": {"type": "line", "point": {"size": 70}},
                  "encoding": {"x": {"field": "speeds", "type": "ordinal", "title": "speeds (θ = 10000, ladder θ^(−i/k))"},
                               "y": {"field": "first_collision", "type": "quantitative", "scale": {"type": "log"},
                                     "title": "first collision distance"}}})J"),
                json::array(), {{"speeds", "speeds k"}, {"first_collision", "first collision"}, {"searched", "searched up to"}},
                {}};
  if (const json* rows = study ? study->find("rows") : nullptr) {
    std::size_t i = 0;
    for (const auto& kv : rows->items()) {
      const std::string p = study_src + "/rows/" + std::to_string(i++);
      const json* k = kv.second.find("speeds");
      const json* D = kv.second.find("first_collision");
      horizon.rows.push(row({{"speeds", k ? *k : json()}, {"first_collision", D ? *D : json()},
                             {"searched", searched ? *searched : json()}}));
      horizon.src.push_back({{"first_collision", p + "/first_collision"}, {"searched", study_src + "/search_limit"}});
    }
  }
  const json* period = claim_value(claims, c_idx, "period");
  std::string intro = "<p>A single speed of 30° per position comes round after " +
                      (period ? cited(*period, "claims.json#/claims/" + std::to_string(c_idx) + "/values/period")
                              : std::string("a whole number of")) +
                      " positions: the angle alone cannot tell a distance from one 360° further. Several speeds "
                      "push the first distance at which every pair lines up again out of reach (the claim "
                      "<code>carousel.d</code>: with the 64 speeds of d = 128, none up to 10<sup>7</sup>";
  if (const json* v = claim_value(claims, d_idx, "smallest_collision_distance"); v && !v->is_null())
    intro += ", yet one at " + cited(*v, "claims.json#/claims/" + std::to_string(d_idx) + "/values/smallest_collision_distance");
  intro += ").</p>";
  std::vector<chart> charts;
  charts.push_back(std::move(wheel));
  // a claims.json written before carousel.d recorded the study: the chart is
  // left out and the page says why (its figures are not computed here)
  if (horizon.rows.size() > 0) charts.push_back(std::move(horizon));
  else
    intro += "<p>The first collisions of 1 to 4 speeds are not in this <code>claims.json</code> (carousel.d's "
             "<code>first_collision_by_speed_count</code>, written by <code>posverify verify</code>), so not "
             "shown.</p>";
  return {"The wheel: one speed comes round, several do not", intro, std::move(charts)};
}

// ---- the 720 orders of the six cells --------------------------------------

section ulps_section(const json& claims) {
  const long idx = claim_index(claims, "perm.six-cells");
  chart h{"ulps-720", "Ulps between attention(P X) and P attention(X) over the 720 orders of the six cells",
          "How many orders reach each ulp distance, per type, for the sequential and the correctly rounded sum.",
          spec(R"J({"mark": {"type": "bar"},
            "width": {"step": 14},
            "encoding": {"x": {"field": "ulps", "type": "ordinal", "title": "max ulps over the output"},
                         "y": {"field": "orders", "type": "quantitative", "title": "orders"},
                         "color": {"field": "reduction", "type": "nominal"},
                         "xOffset": {"field": "reduction", "type": "nominal"},
                         "column": {"field": "type", "type": "nominal", "title": null}}})J"),
          json::array(), {{"type", "type"}, {"reduction", "reduction"}, {"ulps", "ulps"}, {"orders", "orders"}}, {}};
  std::string maxima = "<table class=\"numbers\"><caption>Largest distance over the 720 orders</caption>"
                       "<thead><tr><th>type</th><th>reduction</th><th>max ulps</th></tr></thead><tbody>";
  for (bool cr : {false, true})
    for (bool f32 : {false, true}) {
      const auto u = proofs::six_cell_ulps_per_order(f32, cr);
      std::map<std::int64_t, std::int64_t> hist;
      for (auto x : u) ++hist[x];
      const std::string type = f32 ? "float32" : "float64", red = cr ? "correctly_rounded" : "sequential";
      for (const auto& [ulps, n] : hist)
        h.rows.push(row({{"type", json::string(type)}, {"reduction", json::string(red)}, {"ulps", json::integer(ulps)},
                         {"orders", json::integer(n)}}));
      // The study's row for this cell in claims.json, to cite.
      std::string src;
      if (idx >= 0) {
        const json& c = claims.find("claims")->items()[std::size_t(idx)].second;
        if (const json* bs = c.find("bitwise_study"))
          if (const json* rows = bs->find("rows")) {
            std::size_t i = 0;
            for (const auto& kv : rows->items()) {
              if (str(kv.second, "type") == type && str(kv.second, "reduction") == red)
                src = "claims.json#/claims/" + std::to_string(idx) + "/bitwise_study/rows/" + std::to_string(i) +
                      "/six_cells_max_ulps_720_orders";
              ++i;
            }
          }
      }
      const json mx = json::integer(*std::max_element(u.begin(), u.end()));
      maxima += "<tr><td>" + type + "</td><td>" + red + "</td><td>" + (src.empty() ? html::display(mx) : cited(mx, src)) +
                "</td></tr>";
    }
  maxima += "</tbody></table>";
  return {"Bit for bit? The six cells in 720 orders",
          "<p>The claim <code>perm.six-cells</code>: self-attention of the documented six-cell input "
          "(<code>six_cell_input()</code>) in every order of its rows, compared entry by entry in ulps with the "
          "permuted output of the original order (<code>src/claims/proofs/bitwise_study.cpp</code>).</p>" + maxima,
          {std::move(h)}};
}

// ---- sections from the JSON reports ---------------------------------------

/// Horizontal bars of `x` per law, one bar per `group` side by side, and the line at 1.
json grouped_bars(const std::string& x, const std::string& x_title, const std::string& group) {
  return spec(R"J({"width": 380, "height": {"step": 9},
    "layer": [
      {"mark": "bar",
       "encoding": {"y": {"field": "law", "type": "nominal", "title": null, "sort": null},
                    "x": {"field": ")J" + x + R"J(", "type": "quantitative", "title": ")J" + x_title + R"J("},
                    "color": {"field": ")J" + group + R"J(", "type": "nominal"},
                    "yOffset": {"field": ")J" + group + R"J(", "type": "nominal"}}},
      {"mark": {"type": "rule", "color": "#b00", "strokeDash": [4, 3]}, "encoding": {"x": {"datum": 1}}}]})J");
}

section budgets_section(const json& b) {
  chart c{"budgets", "Largest error over its a-priori bound, per law and implementation",
          "Every bar below 1 (the dashed line): the measured error stays inside the derived bound.",
          grouped_bars("max_over_bound", "max error / bound", "implementation"),
          json::array(),
          {{"law", "law"}, {"implementation", "implementation"}, {"max_over_bound", "max / bound"},
           {"rms_over_bound", "rms / bound"}, {"max_ulps", "max ulps"}},
          {}};
  std::size_t i = 0;
  if (const json* rows = b.find("rows"))
    for (const auto& kv : rows->items()) {
      const json& r = kv.second;
      const std::string p = "error_budgets.json#/rows/" + std::to_string(i++);
      c.rows.push(row({{"law", json::string(str(r, "law"))}, {"implementation", json::string(str(r, "implementation"))},
                       {"max_over_bound", html::need(r, "max_over_bound", p)},
                       {"rms_over_bound", html::need(r, "rms_over_bound", p)}, {"max_ulps", html::need(r, "max_ulps", p)}}));
      c.src.push_back({{"law", p + "/law"}, {"implementation", p + "/implementation"},
                       {"max_over_bound", p + "/max_over_bound"}, {"rms_over_bound", p + "/rms_over_bound"},
                       {"max_ulps", p + "/max_ulps"}});
    }
  return {"Error budgets", "<p>From <code>error_budgets.json</code> (<code>posverify budgets</code>).</p>", {std::move(c)}};
}

section mutation_section(const json& m) {
  chart c{"mutation", "Mutants against the laws that caught them",
          "A cell: the law failed on the mutant; dark: the first law that caught it.",
          spec(R"J({"mark": "rect",
            "encoding": {"x": {"field": "law", "type": "nominal", "title": null, "axis": {"labelAngle": -40}},
                         "y": {"field": "mutant", "type": "nominal", "title": null},
                         "color": {"field": "first", "type": "nominal", "title": "caught first",
                                   "scale": {"domain": [true, false], "range": ["#1f4e79", "#9ecae1"]}}}})J"),
          json::array(), {{"mutant", "mutant"}, {"law", "law that failed"}, {"first", "caught first"}}, {}};
  std::size_t i = 0;
  if (const json* rows = m.find("rows"))
    for (const auto& kv : rows->items()) {
      const json& r = kv.second;
      const std::string p = "mutation.json#/rows/" + std::to_string(i++);
      const std::string by = str(r, "caught_by");
      std::size_t j = 0;
      if (const json* laws = r.find("laws_that_failed"))
        for (const auto& lk : laws->items()) {
          const std::string law = lk.second.as_string();
          c.rows.push(row({{"mutant", json::string(str(r, "mutant"))}, {"law", json::string(law)},
                           {"first", json::boolean(by.rfind(law + "[", 0) == 0 || by == law)}}));
          c.src.push_back({{"mutant", p + "/mutant"}, {"law", p + "/laws_that_failed/" + std::to_string(j++)}});
        }
    }
  std::string intro = "<p>From <code>mutation.json</code> (<code>posverify check --mutation</code>): ";
  if (const json* caught = m.find("caught"))
    if (const json* all = m.find("mutants"))
      intro += cited(*caught, "mutation.json#/caught") + " of " + cited(*all, "mutation.json#/mutants") +
               " deliberately wrong plugins caught.";
  return {"Mutation matrix", intro + "</p>", {std::move(c)}};
}

section fault_section(const json& f) {
  chart c{"fault-matrix", "Planted faults against the verdicts they flip",
          "A cell: under that fault (src/numerics/fault.h) the claim or property changes its verdict.",
          spec(R"J({"mark": "rect",
            "encoding": {"x": {"field": "fault", "type": "nominal", "title": null, "axis": {"labelAngle": -40}},
                         "y": {"field": "item", "type": "nominal", "title": null},
                         "color": {"field": "kind", "type": "nominal", "title": null}}})J"),
          json::array(), {{"item", "claim or property"}, {"fault", "flipped by"}}, {}};
  for (const char* kind : {"claims", "properties"}) {
    std::size_t i = 0;
    if (const json* items = f.find(kind))
      for (const auto& kv : items->items()) {
        const std::string p = std::string("fault_matrix.json#/") + kind + "/" + std::to_string(i++);
        std::size_t j = 0;
        if (const json* fl = kv.second.find("flipped_by"))
          for (const auto& fk : fl->items()) {
            c.rows.push(row({{"item", json::string(str(kv.second, "id"))}, {"fault", fk.second},
                             {"kind", json::string(kind == std::string("claims") ? "claim" : "property")}}));
            c.src.push_back({{"item", p + "/id"}, {"fault", p + "/flipped_by/" + std::to_string(j++)}});
          }
      }
  }
  return {"Fault matrix", "<p>From <code>fault_matrix.json</code> (<code>posverify verify --fault-matrix</code>).</p>",
          {std::move(c)}};
}

section panel_section(const json& pn) {
  chart c{"panel", "The panel of correct kernels: worst error / tolerance per law",
          "How close each correct implementation comes to a false alarm (1, dashed).",
          grouped_bars("worst_ratio", "worst error / tolerance", "member"),
          json::array(), {{"member", "member"}, {"law", "law"}, {"worst_ratio", "worst error / tolerance"}, {"runs", "runs"}},
          {}};
  std::size_t i = 0;
  if (const json* ms = pn.find("members"))
    for (const auto& kv : ms->items()) {
      const std::string p = "panel.json#/members/" + std::to_string(i++);
      std::size_t j = 0;
      if (const json* laws = kv.second.find("laws"))
        for (const auto& lk : laws->items()) {
          const json& l = lk.second;
          const std::string q = p + "/laws/" + std::to_string(j++);
          c.rows.push(row({{"member", json::string(str(kv.second, "member"))}, {"law", json::string(str(l, "law"))},
                           {"worst_ratio", html::need(l, "worst_ratio", q)}, {"runs", html::need(l, "runs", q)}}));
          c.src.push_back({{"member", p + "/member"}, {"law", q + "/law"}, {"worst_ratio", q + "/worst_ratio"},
                           {"runs", q + "/runs"}});
        }
    }
  return {"Panel of correct kernels", "<p>From <code>panel.json</code> (<code>posverify check --panel</code>).</p>",
          {std::move(c)}};
}

section claims_section(const json& claims) {
  chart c{"claims", "Every claim's verdict", "", json(), json::array(),
          {{"id", "claim"}, {"verdict", "verdict"}, {"qualification", "qualification"}}, {}};
  std::size_t i = 0;
  if (const json* cs = claims.find("claims"))
    for (const auto& kv : cs->items()) {
      const std::string p = "claims.json#/claims/" + std::to_string(i++);
      const json* q = kv.second.find("qualification");
      c.rows.push(row({{"id", json::string(str(kv.second, "id"))}, {"verdict", json::string(str(kv.second, "verdict"))},
                       {"qualification", q ? *q : json()}}));
      c.src.push_back({{"id", p + "/id"}, {"verdict", p + "/verdict"}});
    }
  return {"Claims", "<p>The verdicts of <code>claims.json</code>; the reasons in full are in "
                    "<code>claims.md</code>.</p>", {std::move(c)}};
}

std::string opening(const json& claims) {
  std::map<std::string, int> count;
  if (const json* cs = claims.find("claims"))
    for (const auto& kv : cs->items()) count[str(kv.second, "verdict")]++;
  std::string s = "<p>The chapter's claims as <code>posverify verify</code> found them (seed " +
                  html::esc(str(claims, "seed")) + ", reference precision " +
                  html::esc(claims.find("precision_bits") ? number_text(*claims.find("precision_bits")) : "?") +
                  " bits): ";
  bool first = true;
  for (const auto& [v, n] : count) {
    s += (first ? "" : ", ") + std::to_string(n) + " " + html::esc(v);
    first = false;
  }
  return s + ". Every chart has its numbers in the table beside it; every number read from a JSON report "
             "carries its source.</p>";
}

}  // namespace

std::string index_page(const std::string& dir, const json& claims) {
  namespace fs = std::filesystem;
  std::vector<section> sections;
  sections.push_back(claims_section(claims));
  sections.push_back(rope_section());
  sections.push_back(wheel_section(claims));
  sections.push_back(ulps_section(claims));
  std::string missing;
  auto optional = [&](const char* file, section (*make)(const json&), const char* how) {
    const std::string path = dir + "/" + file;
    if (fs::exists(path)) {
      const json j = html::read_json(path);
      sections.push_back(make(j));
      sections.back().html_intro = html::build_html(j) + sections.back().html_intro;
    }
    else
      missing += std::string("<li><code>") + file + "</code> (" + how + ")</li>";
  };
  optional("error_budgets.json", budgets_section, "posverify budgets");
  optional("mutation.json", mutation_section, "posverify check --mutation");
  optional("fault_matrix.json", fault_section, "posverify verify --fault-matrix");
  optional("panel.json", panel_section, "posverify check --panel");
  std::string open = html::build_html(claims) + opening(claims);
  if (!missing.empty()) open += "<p>Not in this folder, so not shown:</p><ul>" + missing + "</ul>";
  return html::page("posverify: the chapter's claims", open, sections);
}

int cmd_html(const std::vector<std::string>& args) {
  std::string dir = "reports";
  std::vector<std::string> checks;
  option_table t = {
      {"--out", "DIR", "the folder of the JSON reports; index.html goes there (default reports/)",
       [&](const std::string& v) { dir = v; }},
      {"--check", "NAME.json", "write NAME.html beside a check report instead",
       [&](const std::string& v) { checks.push_back(v); }},
  };
  parse_options("html", t, args);
  html::bundle();  // the chart libraries first: a missing one stops before anything is written
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& c : checks) {
    const std::filesystem::path p(c);
    std::filesystem::path out = p;
    out.replace_extension(".html");
    files.emplace_back(out.string(), html::check_page(html::read_json(c), p.filename().string()));
  }
  if (checks.empty()) files.emplace_back(dir + "/index.html", index_page(dir, html::read_json(dir + "/claims.json")));
  write_files_atomic(files);
  for (const auto& f : files) std::cout << "wrote " << f.first << "\n";
  return 0;
}

}  // namespace pv::cli
