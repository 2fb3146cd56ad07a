#include "cli/commands.h"

#include "blackbox/baseline.h"
#include "reports/build_line.h"
#include "reports/check_report.h"
#include "blackbox/run.h"
#include "blackbox/law_run.h"
#include "sandbox/process_adapter.h"
#include "sandbox/sandbox.h"
#include "blackbox/shapes.h"
#include "laws/aliases.h"
#include "laws/attend/models.h"
#include "cli/options.h"
#include "cli/check_jobs.h"
#include "reports/junit.h"
#include "core/progress.h"
#include "core/files.h"
#include "core/results.h"
#include "core/shard.h"
#include "core/seeded.h"
#include "core/text.h"
#include "reports/html.h"
#include "mutation/mutation.h"
#include "mutation/panel.h"
#include "reports/mutation_report.h"
#include "reports/panel_report.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pv::cli {

// `check` drives the black-box judge through the sandbox, the mutation and
// panel drivers, and their reports.
using namespace pv::blackbox;
using namespace pv::mutation;
using namespace pv::reports;
using namespace pv::sandbox;

namespace {

using pv::parse_u64;
using pv::usage_error;

/// A size in bytes: a whole number with an optional binary suffix K, M, G or
/// T (a bare number is MiB).
std::uint64_t parse_size(const std::string& flag, const std::string& v) {
  std::string digits = v;
  std::uint64_t unit = 1ull << 20;
  if (!v.empty()) {
    const char u = char(std::toupper(static_cast<unsigned char>(v.back())));
    const std::string units = "KMGT";
    if (units.find(u) != std::string::npos) {
      unit = 1ull << (10 * (units.find(u) + 1));
      digits.pop_back();
    }
  }
  const std::uint64_t n = parse_u64(flag, digits, 0, (1ull << 50) / unit);
  return n * unit;
}

/// The file name (without extension) of a library's reports: its name with
/// every character but letters, digits, '-', '_' and '.' replaced by '_'. A
/// name longer than max_report_name (a file name holds 255 bytes) keeps its
/// first characters and ends in 16 hex digits of the FNV-1a hash of the whole
/// name, so two long names differing only at their end stay apart.
constexpr std::size_t max_report_name = 96;
std::string sanitize(const std::string& s) {
  std::string o;
  for (char c : s) o += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  if (o.empty() || o[0] == '.') o = "impl" + o;
  if (o.size() > max_report_name) {
    char h[24];
    std::snprintf(h, sizeof h, "-%016llx", static_cast<unsigned long long>(fnv1a(s)));
    o = o.substr(0, max_report_name - 17) + h;
  }
  return o;
}

/// A run whose library keeps its child between batches (runner_options::
/// keep_child: check's time was mostly forks).
check_run kept_children() {
  check_run cx;
  cx.ro.keep_child = true;
  return cx;
}

/// Everything `check` takes from its command line.
struct check_args {
  check_run cx = kept_children();
  int min_cases = -1;
  std::string impl, out_dir = "reports", baseline, save_baseline, junit, shard;
  bool shard_given = false;
  bool mutation = false, panel = false, seed_set = false, cases_set = false, maxpos_set = false;
  bool list = false;  ///< --list: print the ids of the laws the run would run, run none
  int jobs = 0;       ///< --jobs (0: not given: default_jobs())
  int seeds = 1;
  unsigned bits = 128;
  std::vector<std::string> libs;  ///< the libraries after --mutation / --panel
};

/// The option table of `posverify check` (one row per option).
cli::option_table check_options(check_args& a) {
  check_run& cx = a.cx;
  auto accuracy = [&](const std::string& v) {
    try {
      cx.accuracy = parse_accuracy(v);
      cx.accuracy_given = true;
    } catch (const std::invalid_argument& e) {
      throw usage_error(e.what());
    }
  };
  auto rope_preset = [&](const std::string& v) {
    try {
      cx.rope_configs.push_back(parse_rope_preset(v));
    } catch (const std::invalid_argument& e) {
      throw usage_error(e.what());
    }
  };
  auto rope_config = [&](const std::string& v) {
    try {
      cx.rope_configs.push_back(parse_rope_config(v));
    } catch (const std::invalid_argument& e) {
      throw usage_error(e.what());
    }
  };
  return {
      {"--impl", "LIB.so", "the implementation to check: a shared library, or python:MODULE:OBJECT (a Python "
       "implementation, python/posverify/, served by a process over docs/protocol.md)",
       [&](const std::string& v) { a.impl = v; }},
      {"--impl-cmd", "\"CMD ARGS\"", "a server in any language speaking docs/protocol.md",
       [&](const std::string& v) { set_process_option("--impl-cmd", v, a.impl); }},
      {"--python", "PATH", "the Python of python:MODULE:OBJECT (default $POSVERIFY_PYTHON, else /usr/bin/python3)",
       [&](const std::string& v) { set_process_option("--python", v, a.impl); }},
      {"--python-path", "DIR", "prepended to the Python server's PYTHONPATH",
       [&](const std::string& v) { set_process_option("--python-path", v, a.impl); }},
      {"--device", "DEV", "the device the Python server puts tensors on (e.g. cuda:0; default cpu)",
       [&](const std::string& v) { set_process_option("--device", v, a.impl); }},
      {"--start-timeout-ms", "MS", "how long a server may take to start and answer HELLO, in all (default 120000); "
       "a server that cannot be restarted within it is not tried again in the run",
       [&](const std::string& v) { set_process_option("--start-timeout-ms", v, a.impl); }},
      {"--out", "DIR", "where the reports go (default reports/)", [&](const std::string& v) { a.out_dir = v; }},
      {"--cases", "N", "random cases per law (default 100)",
       [&](const std::string& v) { cx.cases = int(cases_option.parse(v)), a.cases_set = true; }},
      {"--seed", "S", "seed of the run (default 1)",
       [&](const std::string& v) { cx.seed = seed_option.parse(v), a.seed_set = true; }},
      {"--max-position", "P", "largest position the model uses (default 8192)",
       [&](const std::string& v) { cx.max_position = double(max_position_option.parse(v)), a.maxpos_set = true; }},
      {"--timeout-ms", "MS", "time limit of one call (default 2000)",
       [&](const std::string& v) { cx.ro.timeout_ms = int(parse_u64("--timeout-ms", v, 10, 3600000)); }},
      {"--memory-limit", "SIZE",
       "how much memory the library's process may allocate, e.g. 4G, 512M (a bare number is MiB; "
       "default 4G; 0: no limit; see docs/reliability.md for GPU libraries)",
       [&](const std::string& v) { cx.ro.memory_limit = parse_size("--memory-limit", v); }},
      {"--min-cases", "N",
       "a law with fewer evaluated cases than N (the library declined the rest) is insufficient, "
       "exit 1 (default: a quarter of --cases)",
       [&](const std::string& v) { a.min_cases = int(parse_u64("--min-cases", v, 1, 1000000)); }},
      {"--precision-bits", "B", "reference precision (default 128, range [64, 4096])",
       [&](const std::string& v) { a.bits = unsigned(cli::precision_bits_option.parse(v)); }},
      {"--baseline", "OLD.json", "compare with an earlier report: exit 1 on a regression",
       [&](const std::string& v) { a.baseline = v; }},
      {"--save-baseline", "F", "write this run's report to F as a baseline",
       [&](const std::string& v) { a.save_baseline = v; }},
      {"--rope-config", "SPEC",
       "RoPE configuration to check, PAIRING:THETA:DIMS, e.g. halves:500000:128 or "
       "adjacent:10000:16,56,56 (repeatable; default: text 64/128 in both conventions and FLUX.1); "
       ":MODIFIERS adds partial(R), mrope(T,H,W[,E]), linear(S), ntk(S), dynamic(S,L0,L), "
       "yarn(S,BF,BS,L0[,A]) or llama3(S,LOW,HIGH,L0), joined by + (docs/rope-configs.md)",
       rope_config},
      {"--rope-preset", "NAME",
       "a model's RoPE: llama-3.1-8b, qwen2-vl, flux.1, phi-2, gpt-neox-20b, deepseek-v2-lite (repeatable, with "
       "--rope-config)",
       rope_preset},
      {"--accuracy", "CLASS",
       "the kernel's arithmetic is coarser than its interface: float16 or bfloat16 (inputs stored "
       "in that format, float32 accumulation), float16-pv-accumulation (float16 storage and a float16 sum "
       "of p v) or float16-accumulation; the laws use that format's "
       "unit roundoff (docs/check.md)",
       accuracy},
      {"--profile", "NAME",
       "the shapes of attention.shapes: quick (default; 22 shapes: the tile boundaries of n_k and n_q = 65, 129, 257, head dims "
       "32-256, d != d_v, n_q = 1, random and structured inputs, two rows of 4096 keys with all-positive values) or models (quick plus a decoding step "
       "1x4096, 256x2048 and one FLUX.1 head of 4608 tokens with its 3-axis RoPE per dtype; and attend.models "
       "at every --attend-preset); docs/check.md",
       [&](const std::string& v) {
         try {
           check_profile(v);
         } catch (const std::invalid_argument& e) {
           throw usage_error(e.what());
         }
         cx.profile = v, cx.profile_given = true;
       }},
      {"--attend-preset", "NAME",
       "a model's attention layer for attend.models: " + laws::attend_models::preset_names() +
           " (repeatable; --profile models runs every one; docs/check.md)",
       [&](const std::string& v) {
         if (!laws::attend_models::find_preset(v))
           throw usage_error("--attend-preset: '" + text::visible(v) + "' is not a preset (" +
                             laws::attend_models::preset_names() + ")");
         cx.attend_presets.push_back(v);
       }},
      {"--shape", "NQxNKxDxDV",
       "an attention shape of your own for attention.shapes, e.g. 1x4096x128x128 (repeatable; runs in "
       "place of the profile's shapes unless --profile is given)",
       [&](const std::string& v) {
         try {
           parse_shape(v);
         } catch (const std::invalid_argument& e) {
           throw usage_error(e.what());
         }
         cx.shapes.push_back(v);
       }},
      {"--law", "ID", "run only the laws whose id starts with ID (repeatable: a law runs when its id starts with "
       "one of them; a former id of a law names the law today)",
       [&](const std::string& v) { cx.only_law.push_back(laws::current_id(v)); }},
      {"--case", "K", "run only case K (with --law: replays a failure)",
       [&](const std::string& v) { cx.only_case = int(parse_u64("--case", v, 0, 1000000)); }},
      {"--mutation", "",
       "every LIB given is a deliberately wrong plugin; write mutation.md/.json; exit 1 if one "
       "survives every law",
       [&](const std::string&) { a.mutation = true; }},
      {"--panel", "", "every LIB given is a correct member of the panel; write panel.md/.json",
       [&](const std::string&) { a.panel = true; }},
      {"--seeds", "N", "seeds per panel member (default 1)",
       [&](const std::string& v) { a.seeds = int(parse_u64("--seeds", v, 1, 10000)); }},
      {"--shard", "K/N",
       "run shard K of N (K from 1; default $GTEST_SHARD_INDEX + 1 of $GTEST_TOTAL_SHARDS): the "
       "laws split into N parts, joined by posverify merge (docs/scaling.md)",
       [&](const std::string& v) { a.shard = v, a.shard_given = true; }},
      {"--jobs", "N",
       "workers side by side: N, or auto (the cores posverify may run on); default $POSVERIFY_JOBS, else auto "
       "for a shared library and 1 for a server (python:..., --impl-cmd). "
       "The run is split as --shard splits it (at most one worker per law and RoPE configuration) and joined "
       "as merge joins it: the same report and exit code as one process (docs/scaling.md). With --mutation or "
       "--panel: one library per worker, the record in the order the libraries were given",
       [&](const std::string& v) { a.jobs = parse_jobs("--jobs", v); }},
      {"--junit", "FILE", "also write the result as JUnit XML (one test case per law, dtype and configuration)",
       [&](const std::string& v) { a.junit = v; }},
      {"--list", "",
       "print the id of every law the run would run (LAW[dtype] or LAW[config/dtype], one per line, after "
       "--law and --shard), run none and write nothing",
       [&](const std::string&) { a.list = true; }},
  };
}

}  // namespace

std::string check_usage() {
  check_args scratch;
  return "usage: posverify check --impl LIB.so [options]\n"
         "       posverify check --mutation LIB.so... [options]\n"
         "\n"
         "Runs the laws of attention, RoPE and the sinusoid on the implementation in LIB.so\n"
         "(a shared library exporting posverify_impl(), see posverify/impl.h), in a child\n"
         "process, on every dtype it supports; writes <name>.md, <name>.json and <name>.html.\n"
         "\n" +
         cli::options_help(check_options(scratch)) +
         "\n"
         "exit codes: 0 every law holds; 1 a law fails, is insufficient or regressed; 2\n"
         "bad usage, an unknown --law, or a library that cannot be loaded (wrong ABI\n"
         "version, missing symbol, ...).\n";
}

namespace {

/// The laws of the library cx.lib: every unit enumerated, none run, over the
/// whole run (not one shard), whatever --law asked for. Their base ids are
/// added to `known`.
std::vector<law_result> every_law(const check_run& cx, std::vector<std::string>& known) {
  check_run count = cx;
  count.units = std::make_shared<unit_plan>();  // unsharded
  count.units->count_only = true;
  count.only_law.clear();
  auto o = run_laws(count);
  for (const auto& id : o.all_laws)
    if (std::find(known.begin(), known.end(), id) == known.end()) known.push_back(id);
  return std::move(o.laws);
}

/// The --law prefixes in `asked` that name none of `laws`.
std::vector<std::string> unmatched(const std::vector<std::string>& asked, const std::vector<law_result>& laws) {
  std::vector<std::string> left;
  for (const auto& p : asked)
    if (std::none_of(laws.begin(), laws.end(), [&](const law_result& r) { return asked_for(r, p); }))
      left.push_back(p);
  return left;
}

/// The usage error of a --law that names no law of the libraries.
usage_error no_such_law(const std::string& only, const std::string& whose, const std::vector<std::string>& known) {
  std::string list;
  for (const auto& id : known) list += "\n  " + id;
  const std::string models = laws::attend_models::id;
  const bool asks_models = !only.empty() && (models.rfind(only, 0) == 0 || only.rfind(models, 0) == 0);
  return usage_error("--law: no law of " + whose + " has an id starting with '" + text::visible(only) +
                     "' (ids are LAW[dtype] or LAW[config/dtype]; --law takes a prefix)" +
                     (asks_models ? "; " + models + " runs only with --profile models or --attend-preset NAME" : "") +
                     ". Its laws:" + (list.empty() ? std::string(" none") : list));
}

/// --law with --mutation or --panel: each prefix must name a law of at least
/// one of the libraries (LIB.so@CLASS: the library before '@'); checked
/// before the run. Libraries that cannot be loaded are left to the run.
void check_law_of_libraries(check_run cx, const std::vector<std::string>& libs, bool panel) {
  std::vector<std::string> known, left = cx.only_law;
  bool loaded = false;
  for (const auto& given : libs) {
    const auto at = panel ? given.rfind('@') : std::string::npos;
    try {
      cx.lib = probe_library(given.substr(0, at), cx.ro);
    } catch (const load_error&) {
      continue;
    }
    loaded = true;
    if (!cx.accuracy_given) cx.accuracy = accuracy_class{};
    left = unmatched(left, every_law(cx, known));
    if (left.empty()) return;
  }
  if (loaded) throw no_such_law(left[0], "the libraries given", known);
}

/// check's command line without the options only the whole run has (its
/// reports, baseline and JUnit file, its shard and jobs): what each worker of
/// --jobs is given (cli/check_jobs.h), with its own shard and folder.
/// With `per_unit` (the workers of run_units), without --impl, the libraries
/// and the options of that list either: each worker is given its own.
std::vector<std::string> worker_args(const std::vector<std::string>& args,
                                     const std::optional<std::set<std::string>>& per_unit = std::nullopt) {
  check_args scratch;
  const cli::option_table table = check_options(scratch);
  static const std::set<std::string> whole_run = {"--out", "--jobs", "--shard", "--baseline", "--save-baseline", "--junit"};
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const cli::option* row = nullptr;
    bool joined = false;  // --flag=value
    for (const auto& o : table)
      if (args[i] == o.flag || (!o.value.empty() && args[i].rfind(o.flag + "=", 0) == 0)) {
        row = &o;
        joined = args[i] != o.flag;
      }
    const bool takes_next = row && !row->value.empty() && !joined && i + 1 < args.size();
    const bool dropped =
        row ? whole_run.count(row->flag) || (per_unit && (row->flag == "--impl" || per_unit->count(row->flag)))
            : per_unit.has_value();
    if (!dropped) {
      kept.push_back(args[i]);
      if (takes_next) kept.push_back(args[i + 1]);
    }
    if (takes_next) ++i;
  }
  return kept;
}

/// What the workers' failure said, on stderr; the exit code it ends with.
int said(const job_error& e) {
  const std::string w = e.what();
  std::cerr << w << (w.empty() || w.back() != '\n' ? "\n" : "");
  return e.code;
}

/// The seeds of one part of --panel on several cores: 20 seeds at 2 position
/// ranges make 8 parts per member, so that the slowest member (many RoPE
/// configurations) is not one long part that the others wait for.
constexpr int panel_seeds_per_part = 5;

/// The workers of --mutation and --panel: --jobs, else $POSVERIFY_JOBS, else
/// one per core; at most one per unit (a mutant, or a part of a panel member).
int library_jobs(int given, std::size_t units) {
  const int jobs = given ? given : default_jobs(false);
  return int(std::min<std::size_t>(std::size_t(jobs), std::max<std::size_t>(1, units)));
}

/// The one row a worker of run_units wrote under `key` of its report.
json only_row(const std::string& report, const char* key) {
  json j;
  try {
    j = json::parse(report);
  } catch (const std::exception& e) {
    throw job_error(std::string("posverify: --jobs: a worker's report is not JSON: ") + e.what(), 2);
  }
  const json* rows = j.find(key);
  if (!rows || rows->size() != 1)
    throw job_error(std::string("posverify: --jobs: a worker's report has no single entry under '") + key + "'", 2);
  return rows->items()[0].second;
}

int run(const std::vector<std::string>& args) {
  check_args a;
  install_signal_handlers();  // SIGINT/SIGTERM: kill the plugin's process group first
  cli::parse_options("check", check_options(a), args, &a.libs);
  if (!a.libs.empty() && !(a.mutation || a.panel)) throw usage_error("check: unknown option '" + a.libs[0] + "'");
  check_run& cx = a.cx;
  const int min_cases = a.min_cases;
  const std::string &impl = a.impl, &out_dir = a.out_dir, &baseline = a.baseline, &save_baseline = a.save_baseline;
  const bool mutation = a.mutation, panel = a.panel, seed_set = a.seed_set, cases_set = a.cases_set,
             maxpos_set = a.maxpos_set;
  const int seeds = a.seeds;
  const unsigned bits = a.bits;
  std::vector<std::string>& libs = a.libs;
  ref::set_precision_bits(bits);
  cx.min_cases = min_cases >= 0 ? min_cases : std::max(1, cx.cases / 4);
  try {  // --shard, else GoogleTest's variables (for one --impl only)
    if (a.shard_given || !(mutation || panel)) cx.units->spec = shard::resolve(a.shard, a.shard_given);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
  if (cx.units->spec.sharded() && (mutation || panel || !baseline.empty() || !save_baseline.empty()))
    throw usage_error("--shard " + cx.units->spec.text() + " (or GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS): not with " +
                      (mutation ? "--mutation" : panel ? "--panel" : !baseline.empty() ? "--baseline" : "--save-baseline") +
                      "; shard one --impl run, join the shards with posverify merge");
  if (a.list && (mutation || panel)) throw usage_error(std::string("--list: not with ") + (mutation ? "--mutation" : "--panel") + "; list the laws of one --impl");
  if (mutation) {
    if (!impl.empty()) libs.insert(libs.begin(), impl);
    if (libs.empty()) throw usage_error("--mutation needs at least one library");
    cx.scaled_defaults = true;  // without --rope-config: the scaled configurations too
    if (!cx.only_law.empty() && !std::getenv(library_worker_variable)) check_law_of_libraries(cx, libs, false);
    json m;
    if (const int jobs = library_jobs(a.jobs, libs.size()); jobs > 1) {
      std::vector<json> rows;
      std::vector<std::vector<std::string>> units;
      for (const auto& lib : libs) units.push_back({lib});
      try {
        run_units(worker_args(args, std::set<std::string>{}), units, jobs, "mutation.json", [&](std::size_t, const std::string& r) {
          rows.push_back(only_row(r, "rows"));
          print_mutation_row(rows.back());
        });
      } catch (const job_error& e) {
        return said(e);
      }
      m = mutation_record(cx, rows);
    } else {
      m = run_mutation(cx, libs);
    }
    write_mutation_report(m, out_dir);
    return all_caught(m) ? 0 : 1;
  }
  if (panel) {
    if (!impl.empty()) libs.insert(libs.begin(), impl);
    if (libs.empty()) throw usage_error("--panel needs at least one library");
    if (!cx.only_law.empty() && !std::getenv(library_worker_variable)) check_law_of_libraries(cx, libs, true);
    const std::vector<double> mps =
        maxpos_set ? std::vector<double>{cx.max_position} : std::vector<double>{8192, 131072};
    json p;
    // the parts: each member at each position range, in runs of panel_seeds_per_part seeds
    std::vector<std::vector<std::string>> units;
    std::vector<std::size_t> member_of;
    for (std::size_t m = 0; m < libs.size(); ++m) {
      std::vector<double> ranges = mps;  // a library that does not load says why in its worker
      try {
        ranges = position_ranges(probe_library(member_library(libs[m]), cx.ro.timeout_ms), mps);
      } catch (const std::exception&) {
      }
      for (double mp : ranges)
        for (int s = 0; s < seeds; s += panel_seeds_per_part) {
          units.push_back({"--seed", std::to_string(cx.seed + std::uint64_t(s)), "--seeds",
                           std::to_string(std::min(panel_seeds_per_part, seeds - s)), "--max-position",
                           to_decimal(mp), libs[m]});
          member_of.push_back(m);
        }
    }
    if (const int jobs = library_jobs(a.jobs, units.size()); jobs > 1) {
      std::vector<json> members, parts;
      try {
        run_units(worker_args(args, std::set<std::string>{"--seed", "--seeds", "--max-position"}), units, jobs, "panel.json",
                  [&](std::size_t k, const std::string& r) {
                    parts.push_back(only_row(r, "members"));
                    if (k + 1 < units.size() && member_of[k + 1] == member_of[k]) return;
                    members.push_back(join_member_parts(parts));
                    parts.clear();
                    print_panel_member(members.back());
                  });
      } catch (const job_error& e) {
        return said(e);
      }
      p = panel_record(cx, seeds, mps, members);
    } else {
      try {
        p = run_panel(cx, libs, seeds, mps);
      } catch (const load_error& e) {
        std::cerr << "posverify: " << e.what() << "\n";
        return 2;
      }
    }
    write_panel_report(p, out_dir);
    return no_false_alarm(p) ? 0 : 1;
  }
  if (impl.empty()) throw usage_error("check: --impl LIB.so is required (or --impl python:MODULE:OBJECT, or --impl-cmd)");
  struct baseline base;
  if (!baseline.empty() && !a.list) {  // checked in full before anything runs (--list: it selects no law)
    base = load_baseline(baseline);
    // compare like with like: take the baseline's seed, and its cases and
    // range where they are larger, unless given. A baseline only widens the
    // check: with fewer cases or a shorter range it would let a kernel wrong
    // beyond them pass a default run.
    if (base.seed && !seed_set) cx.seed = *base.seed;
    std::string kept;
    if (base.cases && !cases_set) {
      if (*base.cases < std::uint64_t(cx.cases)) kept += " " + std::to_string(cx.cases) + " cases per law (baseline: " + std::to_string(*base.cases) + ")";
      cx.cases = std::max(cx.cases, int(*base.cases));
    }
    if (base.max_position && !maxpos_set) {
      if (double(*base.max_position) < cx.max_position)
        kept += std::string(kept.empty() ? "" : ",") + " positions up to " + to_decimal(cx.max_position) +
                " (baseline: " + std::to_string(*base.max_position) + ")";
      cx.max_position = std::max(cx.max_position, double(*base.max_position));
    }
    if (!kept.empty()) {
      // more cases and positions find larger errors: the growth of an error
      // is no regression then; the verdicts are still compared
      json laws = json::array();
      for (const auto& kv : base.doc.find("laws")->items()) {
        json rec = kv.second;
        rec.set("worst", json());
        laws.push(rec);
      }
      base.doc.set("laws", laws);
      std::cout << "note: the baseline ran a narrower check; this run keeps" << kept
                << " (a baseline widens a check, never narrows it); its verdicts are compared with the baseline's, "
                   "its errors are not (give --cases and --max-position to compare like with like)\n";
    }
    if (min_cases < 0) cx.min_cases = std::max(1, cx.cases / 4);
  }
  if (!a.list) {
    ensure_dir(out_dir);
    html::bundle();  // <name>.html needs the chart libraries: fail before the run, not after
  }
  try {
    cx.lib = probe_library(impl, cx.ro);
  } catch (const load_error& e) {
    std::cerr << "posverify: " << e.what() << "\n";
    return 2;
  }
  if (!cx.only_law.empty() || a.list) {  // a typo in --law is found before the run, sharded or not
    std::vector<std::string> known;
    const auto laws = every_law(cx, known);
    const auto left = unmatched(cx.only_law, laws);
    if (!left.empty()) throw no_such_law(left[0], cx.lib.name, known);
    if (a.list) {  // the laws asked for, of this shard, in run order
      for (const auto& r : laws)
        if (asked_for(r, cx.only_law) && cx.units->spec.mine(r.unit)) std::cout << r.id << "\n";
      return 0;
    }
  }
  const std::string name = sanitize(cx.lib.name);
  try {  // every file the run writes can take it: found now, not after the run
    for (const char* ext : {".json", ".md", ".html"}) check_write_target(out_dir + "/" + name + ext, "--out");
    if (!save_baseline.empty()) check_write_target(save_baseline, "--save-baseline");
    if (!a.junit.empty()) check_write_target(a.junit, "--junit");
  } catch (const std::runtime_error& e) {
    throw usage_error(e.what());
  }
  // --jobs: at most one worker per unit the run has (a replayed case, one
  // law: one worker); a shard is one worker's part already
  int jobs = a.jobs ? a.jobs : default_jobs(is_process_spec(impl));
  if (jobs > 1 && (cx.units->spec.sharded() || cx.only_case >= 0)) jobs = 1;
  long units = 0;
  if (jobs > 1 || ::isatty(STDERR_FILENO) == 1) {  // every unit enumerated, none run
    check_run count = cx;
    count.units = std::make_shared<unit_plan>(*cx.units);
    count.units->count_only = true;
    const run_output c = run_laws(count);
    units = c.units;
    std::set<long> asked;
    for (const auto& r : c.laws) asked.insert(r.unit);
    jobs = int(std::min<std::size_t>(std::size_t(jobs), std::max<std::size_t>(1, asked.size())));
  }
  std::cout << "checking " << cx.lib.name << " (" << text::visible(impl) << "), seed " << cx.seed << ", " << cx.cases
            << " cases per law, positions up to " << to_decimal(cx.max_position)
            << (cx.units->spec.sharded() ? ", shard " + cx.units->spec.text() : std::string())
            << (jobs > 1 ? ", " + std::to_string(jobs) + " workers" : std::string()) << "\n";
  std::unique_ptr<progress> bar;
  if (::isatty(STDERR_FILENO) == 1) {  // the total of this shard's units (of every worker's)
    const long s = cx.units->spec.total, k = cx.units->spec.index;
    bar = std::make_unique<progress>("check " + cx.lib.name, "laws and RoPE configurations", (units - k + s - 1) / s);
    cx.units->done = [&bar] { bar->step(); };
  } else if (const char* fd = std::getenv(progress_fd_variable)) {  // a worker of --jobs: each unit to the parent
    const int to = int(parse_u64("$" + std::string(progress_fd_variable), fd, 3, 1 << 20));
    ::unsetenv(progress_fd_variable);  // not for the plugin's processes
    ::fcntl(to, F_SETFD, FD_CLOEXEC);
    cx.units->done = [to] { (void)!::write(to, "u", 1); };
  }
  run_output o;
  long children = 0, calls = 0;
  if (jobs > 1) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
      jobs_output w = run_in_jobs(cx, worker_args(args), jobs, sanitize(cx.lib.name),
                                  bar ? std::function<void()>([&bar] { bar->step(); }) : std::function<void()>());
      o = std::move(w.run);
      cx.accuracy = w.accuracy;  // as run_laws resolves it for one process
      children = w.children, calls = w.calls;
    } catch (const job_error& e) {
      return said(e);
    }
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } else {
    o = run_laws(cx);
    children = stats().children, calls = stats().calls;
  }
  o.build = reports::build_line();
  if (bar) bar->finish();
  print_laws(o);
  json regs = json::array();
  if (!baseline.empty()) regs = compare(base, o.laws, cx.only_law);
  json j = report_json(cx, o, regs);
  std::vector<std::pair<std::string, std::string>> files = {
      {out_dir + "/" + name + ".json", j.dump()}, {out_dir + "/" + name + ".md", report_md(cx, o, regs, baseline)}};
  files.emplace_back(out_dir + "/" + name + ".html", html::check_page(j, name + ".json"));
  if (!save_baseline.empty()) files.emplace_back(save_baseline, j.dump());
  if (!a.junit.empty()) files.emplace_back(a.junit, junit::of_report(j));
  write_files_atomic(files);
  bool ok = true, any = false;
  for (const auto& r : o.laws) {
    if (fails_the_run(r.verdict)) ok = false;
    if (r.verdict == verdict::passed || fails_the_run(r.verdict)) any = true;
  }
  for (const auto& kv : o.sweep.items()) {
    const json& sw = kv.second;
    const json* b = sw.find("first_position_beyond_max_position_tolerance");
    if (!b || sw.find("status")) continue;
    // the last position swept: 2^20 + 1, or less for a length read from the positions (rope_sweep.cpp)
    std::string last = "2^20 + 1";
    if (const json* rows = sw.find("rows"); rows && !rows->items().empty())
      if (const std::string p = number_text(*rows->items().back().second.find("position")); p != "1048577") last = p;
    std::cout << "  sweep " << sw.find("config")->as_string() << "/" << sw.find("dtype")->as_string() << ": "
              << (b->is_null() ? "the error stays within the tolerance accepted at --max-position up to " + last
                               : "the error passes the tolerance accepted at --max-position from position " + number_text(*b))
              << "\n";
  }
  for (const auto& kv : regs.items()) std::cout << "  REGRESSION  " << kv.second.as_string() << "\n";
  std::cout << "wrote " << out_dir << "/" << name << ".md, .json and .html" << (a.junit.empty() ? "" : " and " + a.junit);
  if (!save_baseline.empty()) std::cout << "; baseline " << save_baseline;
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", o.seconds);
  std::cout << " (" << secs << " s, " << (jobs > 1 ? std::to_string(jobs) + " workers, " : std::string()) << children
            << " child processes, " << calls << " calls)\n";
  if (!any && cx.only_law.empty() && !cx.units->spec.sharded()) {
    std::cout << "no law could be run: the library provides no function, or declines every dtype\n";
    return 1;
  }
  return ok && regs.size() == 0 ? 0 : 1;
}

}  // namespace

int cmd_check(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << check_usage();
      return 0;
    }
  try {
    return run(args);
  } catch (const usage_error& e) {
    std::cerr << "posverify: " << e.what() << "\n\n" << check_usage();
    return 2;
  }
}

}  // namespace pv::cli
