#include "reports/panel_report.h"

#include "reports/build_line.h"
#include "blackbox/run.h"  // ensure_dir
#include "core/files.h"
#include "core/text.h"
#include "reports/markdown.h"

#include <iostream>
#include <string>

namespace pv::reports {

using namespace pv::blackbox;  // the records this file writes

std::string panel_markdown(const json& j) {
  const json* b = j.find("build");
  std::string md = "# posverify panel of correct implementations\n\n" + build_markdown(b ? b->as_string() : "") + "Each member is a correct kernel written the "
                   "way a real library writes it (plugins/panel/, and the built-in flash_float); each has a "
                   "wrong sibling in the mutation suite. Every law must pass on every member. The ratio is the "
                   "largest error/tolerance of the law over every dtype, configuration, seed (" +
                   std::to_string(j.find("seeds")->as_integer()) + " seeds from " + j.find("seed")->as_string() +
                   ", " + std::to_string(j.find("cases")->as_integer()) +
                   " cases per law) and position range (--max-position";
  // numbers are stored with every digit (%.17g): read back, they are the doubles the run measured
  for (const auto& m : j.find("max_positions")->items()) md += " " + md::num(std::stod(number_text(m.second)));
  md += "): how close the rules run to a false alarm. Target: at most 0.5.\n\n";
  for (const auto& kv : j.find("members")->items()) {
    const json& row = kv.second;
    const std::string acc = row.find("accuracy")->as_string();
    std::string ranges;
    if (const json* m = row.find("max_positions"); m && m->size() < j.find("max_positions")->size())
      for (const auto& kv : m->items()) ranges += " " + md::num(std::stod(number_text(kv.second)));
    md += "## " + text::markdown_code(row.find("member")->as_string()) + (acc == "dtype" ? "" : " (--accuracy " + acc + ")") +
          (ranges.empty() ? "" : "\n\nNo rope() or sinusoid(): no law reads positions, so one range (--max-position" +
                                     ranges + ")") +
          "\n\n| law | runs | failed | worst error / tolerance | where |\n|---|---|---|---|---|\n";
    for (const auto& lk : row.find("laws")->items()) {
      const json& l = lk.second;
      const double ratio = std::stod(number_text(*l.find("worst_ratio")));
      md += "| `" + l.find("law")->as_string() + "` | " + std::to_string(l.find("runs")->as_integer()) + " | " +
            std::to_string(l.find("failed")->as_integer()) + " | " + md::num(ratio) +
            (ratio > 0.5 ? " (above 0.5)" : "") + " | " + markdown_cell(md::untrusted(l.find("where")->as_string())) + " |\n";
    }
    const json& failures = *row.find("false_alarms");
    if (failures.size() > 0) {
      md += "\nFalse alarms:\n\n";
      for (const auto& f : failures.items()) md += "- " + markdown_cell(md::untrusted(md::prose(f.second.as_string()))) + "\n";
    }
    md += "\n";
  }
  md += "False alarms: " + std::to_string(j.find("false_alarms")->as_integer()) + "; laws above the 0.5 target: " +
        std::to_string(j.find("laws_above_target")->as_integer()) + ".\n";
  return md;
}

void write_panel_report(const json& run, const std::string& out_dir) {
  ensure_dir(out_dir);
  json j = run;
  j.set("build", json::string(build_line()));
  write_files_atomic({{out_dir + "/panel.json", j.dump()}, {out_dir + "/panel.md", panel_markdown(j)}});
  std::cout << "panel: " << j.find("members")->size() << " members, " << j.find("false_alarms")->as_integer()
            << " false alarms, " << j.find("laws_above_target")->as_integer() << " laws above the 0.5 target; wrote "
            << out_dir << "/panel.md and " << out_dir << "/panel.json\n";
}

}  // namespace pv::reports
