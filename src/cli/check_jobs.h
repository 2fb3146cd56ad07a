// `posverify check` on several cores: the run split into the shards of
// core/shard.h, each run by a worker (this program, `check --shard K/N`, one
// process per shard, side by side), and joined as `posverify merge` joins
// them. The report, the console lines and the exit code are the single run's
// (the shards draw the single run's cases: docs/scaling.md); only the
// measured times differ.
#pragma once

#include "blackbox/run.h"

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pv::cli {

/// The largest --jobs.
inline constexpr int max_jobs = 256;

/// The cores this process may run on (its CPU affinity mask; at least 1).
int available_cores();

/// A value of --jobs or $POSVERIFY_JOBS: "auto" (available_cores()) or a whole
/// number in [1, max_jobs]. Throws usage_error naming `what` and the value.
int parse_jobs(const std::string& what, const std::string& value);

/// --jobs when not given: $POSVERIFY_JOBS when set; else auto for a shared
/// library, 1 for a server (python:..., --impl-cmd): each worker starts its own
/// server, and a server on a GPU would share the device with the others.
int default_jobs(bool server);

/// The variable that tells a worker where to report each finished unit (one
/// byte to that file descriptor): how the parent's progress line moves.
inline constexpr const char* progress_fd_variable = "POSVERIFY_PROGRESS_FD";

/// A worker that failed in a way a run cannot (exit 2, a signal): what it
/// said, and the exit code `check` ends with.
struct job_error : std::runtime_error {
  int code;
  job_error(const std::string& what, int c) : std::runtime_error(what), code(c) {}
};

/// What the workers of one run give.
struct jobs_output {
  blackbox::run_output run;  ///< the merged run (its library is cx.lib)
  blackbox::accuracy_class accuracy;  ///< the class the workers ran under (the plugin's own unless --accuracy)
  long children = 0, calls = 0;  ///< the workers' child processes and calls, summed
};

/// Runs cx's check as `jobs` workers. `worker_args` is check's command line
/// without the options that only the whole run has (--out, --jobs, --shard,
/// --baseline, --save-baseline, --junit); each worker gets it with the run's
/// seed, cases, positions and min_cases, and its shard and folder, under a
/// temporary folder removed afterwards. `report_name` is the file name of
/// the library's reports. Each worker's standard error is passed on, in
/// shard order. `step` (when set) is called once per unit a worker finishes.
/// Throws job_error when a worker exits 2 or dies.
jobs_output run_in_jobs(const blackbox::check_run& cx, const std::vector<std::string>& worker_args, int jobs,
                        const std::string& report_name, const std::function<void()>& step = {});

/// The variable that marks a worker of run_units (its --law was checked
/// against every library by the parent).
inline constexpr const char* library_worker_variable = "POSVERIFY_LIBRARY_WORKER";

/// `check --mutation` or `--panel` on several cores: runs `posverify check
/// <worker_args> --jobs 1 --out DIR <units[k]>` once per unit (a library, with
/// the options that make it a part: the panel's seeds and position range), at
/// most `jobs` side by side, started in their order. `done(k, report)` gets
/// the text of the report file `report_file` unit k's worker wrote, for k = 0,
/// 1, ... in order, as soon as that worker and every one before it have
/// ended; the workers' standard error is passed on in the same order. Throws
/// job_error (the worker's own words when it exited 2) when a worker exits
/// other than 0 or 1, or dies, after done() for the units before it.
void run_units(const std::vector<std::string>& worker_args, const std::vector<std::vector<std::string>>& units,
               int jobs, const std::string& report_file,
               const std::function<void(std::size_t, const std::string&)>& done);

}  // namespace pv::cli
