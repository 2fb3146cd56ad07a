#include "reports/budgets_report.h"

#include "reports/build_line.h"
#include "core/files.h"
#include "reports/markdown.h"
#include "numerics/scalar.h"

#include <algorithm>
#include <cstdio>

namespace pv::reports {

using namespace pv::budgets;  // the records this file writes

namespace {

std::string fmt(double x, const char* f = "%.3g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

}  // namespace

json budgets_to_json(const std::vector<budget_row>& rows, std::uint64_t seed, std::uint64_t cases) {
  json j = json::object();
  j.set("tool", json::string("posverify budgets"));
  j.set("build", json::string(build_line()));
  j.set("seed", json::string(std::to_string(seed)));
  j.set("cases_per_row", json::integer(static_cast<std::int64_t>(cases)));
  j.set("precision_bits", json::integer(ref::precision_bits()));
  j.set("assumption", json::string("libm exp, sin, cos within 2 ulps (glibc documents 1): trig_abs_error, exp_rel_error in error_bounds.h"));
  json arr = json::array();
  bool ok = true;
  for (const auto& r : rows) {
    json o = json::object();
    o.set("law", json::string(r.law));
    o.set("bound", json::string(r.bound));
    o.set("implementation", json::string(r.impl));
    o.set("cases", json::integer(static_cast<std::int64_t>(r.cases)));
    o.set("entries", json::integer(static_cast<std::int64_t>(r.entries)));
    o.set("max_ulps", json::number(fmt(r.max_ulps, "%.6g")));
    o.set("rms_ulps", json::number(fmt(r.rms_ulps, "%.6g")));
    o.set("max_over_bound", json::number(fmt(r.max_ratio, "%.6g")));
    o.set("rms_over_bound", json::number(fmt(r.rms_ratio, "%.6g")));
    o.set("within_bound", json::boolean(r.within_bound));
    o.set("worst_case", json::string("seed " + std::to_string(seed) + ", case " + std::to_string(r.worst_case)));
    o.set("worst_input", json::string(r.worst_input));
    ok = ok && r.within_bound;
    arr.push(o);
  }
  j.set("rows", arr);
  j.set("all_within_bounds", json::boolean(ok));
  return j;
}

std::string budgets_to_markdown(const std::vector<budget_row>& rows, std::uint64_t seed,
                                std::uint64_t cases) {
  std::string s = "# Error budgets\n\n" + build_markdown(build_line());
  s += "Observed errors of posverify's built-in implementations against the high-precision "
       "reference (MPFR, " + std::to_string(ref::precision_bits()) + " bits) and against the "
       "a-priori bounds of `src/posverify/error_bounds.h` that the tolerances use. " +
       std::to_string(cases) + " random cases per row, seed " + std::to_string(seed) +
       "; a case is regenerated from the seed and its index (`posverify budgets --seed " +
       std::to_string(seed) + " --case I` reruns case I of every row). Ulps: forward errors in units of the spacing of the type at "
       "the exact value; law residuals as the number of representable values between the two "
       "results. The bounds allow libm exp/sin/cos 2 ulps (glibc documents 1).\n";
  std::vector<std::string> laws;  // in order of first appearance
  for (const auto& r : rows)
    if (std::find(laws.begin(), laws.end(), r.law) == laws.end()) laws.push_back(r.law);
  for (const auto& law : laws) {
    bool first = true;
    for (const auto& r : rows) {
      if (r.law != law) continue;
      if (first) {
        s += "\n## " + r.law + "\n\nbound: `" + r.bound + "`\n\n";
        s += "| implementation | cases | entries | max ulps | RMS ulps | max / bound | RMS / bound | worst case (by max / bound) | within bound |\n";
        s += "|---|---|---|---|---|---|---|---|---|\n";
        first = false;
      }
      s += "| " + r.impl + " | " + std::to_string(r.cases) + " | " + std::to_string(r.entries) + " | " +
           md::num(r.max_ulps) + " | " + md::num(r.rms_ulps) + " | " + md::num(r.max_ratio) + " | " +
           md::num(r.rms_ratio) + " | " + std::to_string(r.worst_case) + " | " +
           (r.within_bound ? "yes" : "**NO**") + " |\n";
    }
  }
  s += "\n## Worst inputs\n\n";
  for (const auto& r : rows)
    s += "- " + r.law + ", " + r.impl + ": case " + std::to_string(r.worst_case) + ": `" +
         r.worst_input + "`\n";
  return s;
}

}  // namespace pv::reports
