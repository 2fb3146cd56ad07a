#include "reports/mutation_report.h"

#include "reports/build_line.h"
#include "blackbox/run.h"  // ensure_dir
#include "core/files.h"
#include "core/text.h"
#include "reports/markdown.h"

#include <iostream>

namespace pv::reports {

using namespace pv::blackbox;  // the records this file writes

std::string mutation_markdown(const json& j) {
  const json* b = j.find("build");
  std::string md = "# posverify mutation score\n\n" + build_markdown(b ? b->as_string() : "") + "Each mutant is a deliberately wrong plugin (plugins/mutants/). "
                   "It is caught when at least one law fails on it; the table names the first law that "
                   "failed (in the order the laws run), after how many cases, and the finding. Seed " +
                   j.find("seed")->as_string() + ", " + std::to_string(j.find("cases")->as_integer()) +
                   " cases per law. A mutant "
                   "built against ABI version 2 is also called with float16 and bfloat16 buffers (laws "
                   "`[float16]`, `[bfloat16]`); a sibling of a low-precision panel member declares the "
                   "member's accuracy class (shown beside its name) and is judged on those terms. An "
                   "attention mutant that no law catches is checked again by `attend.models` at the shapes of "
                   "real models (`--profile models`); the table says when only those shapes caught it.\n\n"
                   "| mutant | caught by | cases | finding | laws failed | every law that failed |\n|---|---|---|---|---|---|\n";
  std::string diagnoses;
  for (const auto& kv : j.find("rows")->items()) {
    const json& row = kv.second;
    const std::string name = row.find("mutant")->as_string();
    if (const json* err = row.find("error")) {
      md += "| " + text::markdown_code(name) + " | **not loaded** | — | " + markdown_cell(md::untrusted(err->as_string())) + " | — | — |\n";
      continue;
    }
    const std::string acc = row.find("accuracy")->as_string();
    const bool caught = row.find("caught")->as_bool();
    std::string also;
    for (const auto& b : row.find("laws_that_failed")->items()) also += (also.empty() ? "" : ", ") + b.second.as_string();
    md += "| " + text::markdown_code(name) + (acc == "dtype" ? "" : " (accuracy " + acc + ")") + " | " +
          (caught ? "`" + row.find("caught_by")->as_string() + "`" +
                        (row.find("profile") ? std::string(" (only at the shapes of `--profile models`)") : "")
                  : std::string("**survived**")) +
          " | " +
          (caught ? std::to_string(row.find("cases")->as_integer()) : "—") + " | " +
          markdown_cell(caught ? md::untrusted(md::prose(row.find("finding")->as_string())) : "—") + " | " +
          std::to_string(row.find("laws_failed")->as_integer()) + " of " +
          std::to_string(row.find("laws_run")->as_integer()) + " | " + (also.empty() ? "—" : also) + " |\n";
    if (caught)
      if (const json* dg = row.find("diagnosis")) diagnoses += "- " + text::markdown_code(name) + ": " + md::untrusted(dg->as_string()) + "\n";
  }
  md += "\nMutation score: " + std::to_string(j.find("caught")->as_integer()) + " of " +
        std::to_string(j.find("mutants")->as_integer()) + " caught.\n";
  if (!diagnoses.empty())
    md += "\n## Diagnoses (black-box probes after the first failing law or RoPE configuration)\n\n" + diagnoses;
  return md;
}

void write_mutation_report(const json& run, const std::string& out_dir) {
  ensure_dir(out_dir);
  json j = run;
  j.set("build", json::string(build_line()));
  write_files_atomic({{out_dir + "/mutation.json", j.dump()}, {out_dir + "/mutation.md", mutation_markdown(j)}});
  std::cout << "mutation score: " << j.find("caught")->as_integer() << " of " << j.find("mutants")->as_integer()
            << " caught; wrote " << out_dir << "/mutation.md and " << out_dir << "/mutation.json\n";
}

}  // namespace pv::reports
