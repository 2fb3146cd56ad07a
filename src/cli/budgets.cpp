// `posverify budgets`: the error budgets' command line (split out of
// src/budgets/budgets.cpp).
#include "cli/options.h"
#include "core/progress.h"
#include "core/files.h"
#include "budgets/budgets.h"
#include "reports/budgets_report.h"

#include <cstdint>
#include <cstdio>

namespace pv::cli {

int cmd_budgets(const std::vector<std::string>& args) {
  std::string out_dir = "reports";
  std::uint64_t seed = 1, cases = 1000;
  bool replay = false;
  std::uint64_t replay_case = 0;
  cli::parse_options(
      "budgets",
      {
          {"--out", "DIR", "where the reports go (default reports/)",
           [&](const std::string& v) { out_dir = v; }},
          {"--seed", "S", "seed of the cases (default 1)",
           [&](const std::string& v) { seed = pv::parse_u64("--seed", v, 0, UINT64_MAX); }},
          {"--cases", "N", "cases per row (default 1000)",
           [&](const std::string& v) { cases = pv::parse_u64("--cases", v, 1, 1000000); }},
          {"--case", "I", "replay case I of every row, print it in full, write nothing",
           [&](const std::string& v) {
             replay = true;
             replay_case = pv::parse_u64("--case", v, 0, UINT64_MAX - 1);
           }},
      },
      args);
  if (replay) {  // one case of every row, printed in full; nothing written
    bool ok = true;
    for (const auto& r : budgets::run_budgets(seed, 1, 1, replay_case)) {
      std::printf("%s | %s | case %llu: %.6g ulps, %.6g of the bound (%s)\n  input: %s\n",
                  r.law.c_str(), r.impl.c_str(), static_cast<unsigned long long>(replay_case),
                  r.max_ulps, r.max_ratio, r.within_bound ? "within" : "EXCEEDED",
                  r.worst_input.c_str());
      ok = ok && r.within_bound;
    }
    return ok ? 0 : 1;
  }
  make_out_dir(out_dir, "--out");
  progress bar("budgets", "groups of rows", budgets::budget_groups);
  const auto rows = budgets::run_budgets(seed, cases, 1, 0, [&bar] { bar.step(); });
  bar.finish();
  const std::string json_text = reports::budgets_to_json(rows, seed, cases).dump();
  const std::string md = reports::budgets_to_markdown(rows, seed, cases);
  write_files_atomic({{out_dir + "/error_budgets.json", json_text}, {out_dir + "/error_budgets.md", md}});
  bool ok = true;
  for (const auto& r : rows) {
    std::printf("  %s  %-55s %-28s max %.3g ulps, %.3g of bound\n", r.within_bound ? "ok  " : "FAIL",
                r.law.c_str(), r.impl.c_str(), r.max_ulps, r.max_ratio);
    ok = ok && r.within_bound;
  }
  std::printf("wrote %s/error_budgets.json and %s/error_budgets.md\n", out_dir.c_str(), out_dir.c_str());
  return ok ? 0 : 1;
}

}  // namespace pv::cli
