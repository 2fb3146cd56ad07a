// posverify merge OUT SHARD.json...: joins the reports of the shards of one
// `check` or `verify` run (posverify/shard.h) into the single run's report,
// JSON and Markdown (and JUnit XML with --junit), written atomically.
#include "reports/check_report.h"
#include "blackbox/law_result.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "core/files.h"
#include "core/json_read.h"
#include "core/results_fields.h"
#include "reports/junit.h"
#include "reports/claims_report.h"
#include "numerics/scalar.h"
#include "core/shard.h"

#include <fstream>
#include <map>
#include <iostream>
#include <sstream>

namespace pv::cli {
namespace {

std::string usage() {
  return "usage: posverify merge OUT SHARD.json...\n"
         "       posverify merge --out OUT SHARD.json...\n"
         "\n"
         "Joins the JSON reports of the shards of one run (check --shard K/N, verify --shard K/N,\n"
         "or GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS) into the report the whole run writes: OUT.json\n"
         "and OUT.md when OUT ends in .json, else OUT/<the shards' file name>. Refuses shards of\n"
         "different runs (seed, options, version, implementation), a shard given twice and a\n"
         "missing shard.\n"
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

/// Reads every record of a shard back with its field table (laws:
/// blackbox/law_result.h; claims, properties: core/results_fields.h), so that a bad
/// field stops the merge naming the file, the entry and the field.
void check_records(const json& shard, const std::string& file) {
  fields::read_list(shard, "laws", blackbox::law_fields(), file);
  fields::read_list(shard, "claims", claim_fields(), file);
  fields::read_list(shard, "properties", property_fields(), file);
}

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
    std::vector<std::pair<std::string, json>> shards;
    for (const auto& f : files) {
      try {
        shards.emplace_back(f, json::parse(slurp(f)));
        // every verdict names one (parse_verdict), reported with the file and the entry
        for (const char* list : {"laws", "claims", "properties"})
          if (const json* items = shards.back().second.find(list))
            for (std::size_t i = 0; i < items->size(); ++i)
              json_read::verdict_of(items->items()[i].second, f + ": " + list + "[" + std::to_string(i) + "]");
        check_records(shards.back().second, f);
        if (shards.back().second.find("laws")) json_read::seed_of(shards.back().second, f);  // a check report's
      } catch (const std::runtime_error& e) {
        throw std::runtime_error(std::string(e.what()).rfind(f, 0) == 0 ? e.what() : f + ": " + e.what());
      }
    }
    const json& first = shards.front().second;
    const bool is_check = first.find("laws") != nullptr;
    if (!is_check && !first.find("claims"))
      throw std::runtime_error(files.front() + ": neither a check report (\"laws\") nor a verify report (\"claims\")");
    json merged = shard::merge(shards, is_check ? std::vector<std::string>{"laws", "sweep", "diagnosis"}
                                                : std::vector<std::string>{"claims", "properties"});
    if (const json* bits = merged.find("precision_bits")) ref::set_precision_bits(unsigned(bits->as_integer()));
    bool ok = true;
    std::string md;
    if (is_check) {
      std::map<std::string, int> count;  // the summary, as check.cpp's report_json counts it
      for (const auto& kv : merged.find("laws")->items()) {
        const verdict v = json_read::verdict_of(kv.second, "the merged check report: law " + json_read::text(kv.second, "id"));
        count[to_string(v)]++;
        ok = ok && !fails_the_run(v);
      }
      json sum = json::object();
      for (const auto& kv : count) sum.set(kv.first, json::integer(kv.second));
      merged.set("summary", sum);
      if (const json* regs = merged.find("regressions")) ok = ok && regs->size() == 0;
      md = reports::markdown_of_json(merged);
    } else {
      const report r = reports::report_of_json(merged, "the merged verify report: ");
      for (const auto& c : r.claims) ok = ok && c.result != verdict::fails;
      for (const auto& p : r.properties) ok = ok && p.verdict == verdict::passed;
      md = reports::to_markdown(r);
    }
    std::string json_path = out;
    if (out.size() < 5 || out.compare(out.size() - 5, 5, ".json") != 0) {
      make_out_dir(out, "merge OUT");
      const std::string& f = files.front();
      json_path = out + "/" + f.substr(f.find_last_of('/') + 1);
    }
    const std::string md_path = json_path.substr(0, json_path.size() - 5) + ".md";
    std::vector<std::pair<std::string, std::string>> w = {{json_path, merged.dump()}, {md_path, md}};
    if (!junit_file.empty()) w.emplace_back(junit_file, junit::of_report(merged));
    write_files_atomic(w);
    std::cout << "merged " << shards.size() << " shard" << (shards.size() == 1 ? "" : "s") << " into " << json_path
              << " and " << md_path << (junit_file.empty() ? std::string() : " and " + junit_file) << "\n";
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "posverify merge: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace pv::cli
