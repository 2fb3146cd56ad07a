// posverify merge OUT SHARD.json...: joins the reports of the shards of one
// `check` or `verify` run (posverify/shard.h) into the single run's report,
// JSON and Markdown (and JUnit XML with --junit), written atomically.
#include "cli/commands.h"
#include "cli/options.h"
#include "core/files.h"
#include "reports/junit.h"
#include "reports/merge_reports.h"

#include <iostream>

namespace pv::cli {
namespace {

std::string usage() {
  return "usage: posverify merge OUT SHARD.json...\n"
         "       posverify merge --out OUT SHARD.json...\n"
         "\n"
         "Joins the JSON reports of the shards of one run (check --shard K/N, verify --shard K/N,\n"
         "or GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS) into the report the whole run writes: OUT.json\n"
         "and OUT.md when OUT ends in .json, else OUT/<the shards' file name>. Refuses shards of\n"
         "different runs (seed, options, version, implementation), a shard given twice, a\n"
         "missing shard, a report that contradicts itself (a verdict against its own finding,\n"
         "counterexample or worst case; a summary against its laws) and a unit without its records.\n"
         "\n" +
         options_help({{"--out", "OUT", "the merged report (a .json file, or a folder)", nullptr},
                       {"--junit", "FILE", "also write the merged result as JUnit XML", nullptr}}) +
         "\n"
         "exit codes: 0 the merged run holds; 1 it has a failure; 2 bad usage or shards that\n"
         "do not make one run.\n";
}

/// A shard's text: a regular file of at most max_report_bytes (never a
/// device or a FIFO, which could be endless or never end).
std::string slurp(const std::string& path) { return read_regular_file(path, max_report_bytes); }

}  // namespace

int cmd_merge(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << usage();
      return 0;
    }
  std::string out, junit_file;
  std::vector<std::string> files;
  try {
    parse_options("merge",
                  {{"--out", "OUT", "", [&](const std::string& v) { out = v; }},
                   {"--junit", "FILE", "", [&](const std::string& v) { junit_file = v; }}},
                  args, &files);
    if (out.empty() && !files.empty()) out = files.front(), files.erase(files.begin());
    if (out.empty()) throw usage_error("merge: OUT (or --out OUT) is required");
    if (files.empty()) throw usage_error("merge: no shard reports given (posverify merge OUT SHARD.json...)");
  } catch (const usage_error& e) {
    std::cerr << "posverify: " << e.what() << "\n\n" << usage();
    return 2;
  }
  try {
    std::vector<std::pair<std::string, std::string>> texts;
    for (const auto& f : files) texts.emplace_back(f, slurp(f));
    const reports::merged_run m = reports::merge_reports(texts);
    std::string json_path = out;
    if (out.size() < 5 || out.compare(out.size() - 5, 5, ".json") != 0) {
      make_out_dir(out, "merge OUT");
      const std::string& f = files.front();
      json_path = out + "/" + f.substr(f.find_last_of('/') + 1);
    }
    const std::string md_path = json_path.substr(0, json_path.size() - 5) + ".md";
    std::vector<std::pair<std::string, std::string>> w = {{json_path, m.report.dump()}, {md_path, m.markdown}};
    if (!junit_file.empty()) w.emplace_back(junit_file, junit::of_report(m.report));
    write_files_atomic(w);
    std::cout << "merged " << files.size() << " shard" << (files.size() == 1 ? "" : "s") << " into " << json_path
              << " and " << md_path << (junit_file.empty() ? std::string() : " and " + junit_file) << "\n";
    return m.holds ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "posverify merge: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace pv::cli
